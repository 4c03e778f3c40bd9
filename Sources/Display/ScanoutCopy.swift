import CarouselCore
import Raster

/// How pixels are laid out in a scan-out buffer.
public enum ScanoutFormat: Equatable, Sendable {
    /// 32 bits, X R G B from the high byte (DRM `XR24`): the frame's own layout.
    case xrgb8888
    /// 32 bits, X B G R (some fbdev drivers).
    case xbgr8888
    /// 16 bits, R5 G6 B5.
    case rgb565

    public var bytesPerPixel: Int { self == .rgb565 ? 2 : 4 }
}

/// A mapped buffer the display scans out: a dumb buffer or a framebuffer page.
public struct ScanoutBuffer {
    public var base: UnsafeMutableRawPointer
    /// Bytes per row.
    public var pitch: Int
    /// Physical size in pixels.
    public var width: Int
    public var height: Int
    public var format: ScanoutFormat

    public init(base: UnsafeMutableRawPointer, pitch: Int, width: Int, height: Int, format: ScanoutFormat) {
        self.base = base; self.pitch = pitch; self.width = width; self.height = height; self.format = format
    }
}

/// Copies damaged rectangles of the cached-memory frame into a scan-out buffer, rotated and
/// converted. Scan-out memory is often write-combined (slow to read, fast to write in order), so
/// every path writes whole row segments left to right and never reads the buffer back:
/// - 0°: one `memcpy`-style row copy per row;
/// - 180°: each row read backwards, written forwards;
/// - 90°/270°: the rectangle is cut into 64×64 tiles; each tile is transposed in a small cached
///   scratch tile (reads along source rows), then written out row by row.
/// Pixel format conversion (RGB565, XBGR) happens per written row segment.
///
/// A frame smaller than the logical screen (`[display] render_scale` below 1) is enlarged in the
/// same pass (`copyScaled`, ScaledScanoutCopy.swift) with `filter`; its damage rectangles are
/// grown to the screen pixels they change.
public final class ScanoutCopier {
    static let tile = 64
    /// A cached tile for transposing and reversing rows.
    let scratch: UnsafeMutablePointer<UInt32>
    /// How a smaller frame is enlarged.
    public var filter: ScaleFilter {
        didSet { if filter != oldValue { cachedAxes = nil } }
    }
    /// The enlargement tables of the last scaled copy (the sizes rarely change).
    private var cachedAxes: (x: ScaleAxis, y: ScaleAxis)?
    /// One scene row mixed vertically (bilinear), grown on demand.
    private var line: UnsafeMutablePointer<UInt32>?
    private var lineCapacity = 0

    public init(filter: ScaleFilter = .preferred) {
        self.filter = filter
        scratch = .allocate(capacity: Self.tile * Self.tile)
        scratch.initialize(repeating: 0, count: Self.tile * Self.tile)
    }

    deinit {
        scratch.deallocate()
        line?.deallocate()
    }

    /// The enlargement tables for these sizes (cached).
    func axes(sceneWidth sw: Int, sceneHeight sh: Int, screenWidth lw: Int, screenHeight lh: Int) -> (ScaleAxis, ScaleAxis) {
        if let c = cachedAxes, c.x.scene == sw, c.x.screen == lw, c.y.scene == sh, c.y.screen == lh { return (c.x, c.y) }
        let a = (x: ScaleAxis(scene: sw, screen: lw, filter: filter), y: ScaleAxis(scene: sh, screen: lh, filter: filter))
        cachedAxes = a
        return (a.x, a.y)
    }

    /// A cached row of at least `count` pixels.
    func lineBuffer(count: Int) -> UnsafeMutablePointer<UInt32> {
        if let l = line, lineCapacity >= count { return l }
        line?.deallocate()
        let l = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        l.initialize(repeating: 0, count: count)
        line = l
        lineCapacity = count
        return l
    }

    /// Copies `rect` (frame coordinates, clipped to `frame`) into `buffer` as `rotation` maps it;
    /// a frame smaller than the logical screen (`buffer`'s size before rotation) is enlarged to it.
    /// Returns the number of pixels written.
    @discardableResult
    public func copy(_ rect: PixelRect, from frame: Canvas, to buffer: ScanoutBuffer, rotation: DisplayRotation) -> Int {
        let logical = rotation.logicalSize(physicalWidth: buffer.width, physicalHeight: buffer.height)
        if (frame.width, frame.height) != logical, frame.width <= logical.width, frame.height <= logical.height {
            return copyScaled(rect, from: frame, to: buffer, rotation: rotation,
                              logicalWidth: logical.width, logicalHeight: logical.height)
        }
        let r = rect.intersection(frame.bounds)
        guard !r.isEmpty else { return 0 }
        let lw = frame.width, lh = frame.height
        let p = rotation.physicalRect(r, logicalWidth: lw, logicalHeight: lh)
            .intersection(PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height))
        guard p == rotation.physicalRect(r, logicalWidth: lw, logicalHeight: lh) else {
            // The frame does not fit the buffer (size changed and not relaid out yet): skip.
            return 0
        }
        let src = frame.pixels, stride = frame.stride
        switch rotation {
        case .none:
            for row in 0..<r.height {
                store(src + (r.y + row) * stride + r.x, count: r.width, to: buffer, x: p.x, y: p.y + row)
            }
        case .upsideDown:
            for row in 0..<p.height {
                let py = p.y + row
                let ly = lh - 1 - py
                // Physical x runs p.x ..< p.maxX; logical x = lw - 1 - px, i.e. backwards.
                let s = src + ly * stride + (lw - 1 - p.x)
                var x = 0
                while x < p.width {
                    let n = min(Self.tile * Self.tile, p.width - x)
                    for i in 0..<n { scratch[i] = s[-(x + i)] }
                    store(scratch, count: n, to: buffer, x: p.x + x, y: py)
                    x += n
                }
            }
        case .clockwise90, .clockwise270:
            let t = Self.tile
            var ty = p.y
            while ty < p.maxY {
                let th = min(t, p.maxY - ty)
                var tx = p.x
                while tx < p.maxX {
                    let tw = min(t, p.maxX - tx)
                    // Fill scratch[row * tw + col] = physical (tx + col, ty + row).
                    if rotation == .clockwise90 {
                        // physical (px, py) ← logical (py, lh - 1 - px): a source row per px.
                        for col in 0..<tw {
                            let s = src + (lh - 1 - (tx + col)) * stride + ty
                            for row in 0..<th { scratch[row * tw + col] = s[row] }
                        }
                    } else {
                        // physical (px, py) ← logical (lw - 1 - py, px): a source row per px.
                        for col in 0..<tw {
                            let s = src + (tx + col) * stride + (lw - 1 - ty)
                            for row in 0..<th { scratch[row * tw + col] = s[-row] }
                        }
                    }
                    for row in 0..<th { store(scratch + row * tw, count: tw, to: buffer, x: tx, y: ty + row) }
                    tx += tw
                }
                ty += th
            }
        }
        return r.area
    }

    /// Writes `count` XRGB pixels into one row segment of the buffer, converting the format.
    @inline(__always)
    func storeRow(_ src: UnsafeMutablePointer<UInt32>, count: Int, to b: ScanoutBuffer, x: Int, y: Int) {
        store(UnsafePointer(src), count: count, to: b, x: x, y: y)
    }

    @inline(__always)
    private func store(_ src: UnsafePointer<UInt32>, count: Int, to b: ScanoutBuffer, x: Int, y: Int) {
        let row = b.base + y * b.pitch
        switch b.format {
        case .xrgb8888:
            (row.assumingMemoryBound(to: UInt32.self) + x).update(from: src, count: count)
        case .xbgr8888:
            let d = row.assumingMemoryBound(to: UInt32.self) + x
            for i in 0..<count {
                let v = src[i]
                d[i] = (v & 0xFF00_FF00) | ((v >> 16) & 0xFF) | ((v & 0xFF) << 16)
            }
        case .rgb565:
            let d = row.assumingMemoryBound(to: UInt16.self) + x
            for i in 0..<count {
                let v = src[i]
                d[i] = UInt16(truncatingIfNeeded: ((v >> 8) & 0xF800) | ((v >> 5) & 0x07E0) | ((v >> 3) & 0x001F))
            }
        }
    }
}

extension ScanoutCopier {
    private func store(_ src: UnsafeMutablePointer<UInt32>, count: Int, to b: ScanoutBuffer, x: Int, y: Int) {
        store(UnsafePointer(src), count: count, to: b, x: x, y: y)
    }
}
