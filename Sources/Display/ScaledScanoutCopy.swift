import CarouselCore
import Raster

/// One axis of an enlargement from `scene` pixels (the frame drawn at the render scale) to
/// `screen` pixels (the logical screen, before rotation).
///
/// Screen pixel `d` is sampled at its centre, `s = (d + ½)·scene/screen − ½` in scene pixels
/// (clamped to the frame): `index[d]` is `⌊s⌋`, `next[d]` the pixel after it (the last one at
/// the edge) and `weight[d]` the share of `next` in 256ths. With `doubling`, `index[d] = d / 2`
/// and the weight is 0 (nearest of the two). Tables in raw memory: the copy's inner loops read
/// them without bounds checks.
final class ScaleAxis {
    let scene: Int
    let screen: Int
    let doubling: Bool
    let index: UnsafeMutablePointer<Int>
    let next: UnsafeMutablePointer<Int>
    let weight: UnsafeMutablePointer<UInt32>

    init(scene: Int, screen: Int, filter: ScaleFilter) {
        self.scene = scene
        self.screen = screen
        doubling = filter == .pixelDoubling && ScaleFilter.doubles(scene: scene, screen: screen)
        index = .allocate(capacity: screen)
        next = .allocate(capacity: screen)
        weight = .allocate(capacity: screen)
        let ratio = Double(scene) / Double(screen)
        for d in 0..<screen {
            var i: Int, w: UInt32 = 0
            if doubling {
                i = d >> 1
            } else {
                let s = max(0, (Double(d) + 0.5) * ratio - 0.5)
                i = Int(s.rounded(.down))
                var f = s - Double(i)
                if i >= scene - 1 { i = scene - 1; f = 0 }
                w = UInt32((f * 256).rounded())
            }
            index[d] = i
            next[d] = min(i + 1, scene - 1)
            weight[d] = w
        }
    }

    deinit {
        index.deallocate()
        next.deallocate()
        weight.deallocate()
    }

    /// The screen pixels whose value depends on scene pixels `a ..< b`: for bilinear, grown by
    /// one scene pixel each way (a screen pixel reads its neighbour), then scaled outward.
    func screenRange(sceneFrom a: Int, to b: Int) -> Range<Int> {
        guard a < b else { return 0..<0 }
        if doubling { return min(screen, 2 * a)..<min(screen, 2 * b) }
        let g0 = max(0, a - 1), g1 = min(scene, b + 1)
        return (g0 * screen / scene)..<min(screen, (g1 * screen + scene - 1) / scene)
    }
}

/// `a` and `b` mixed, `w`/256 of `b` (0…256), each 8-bit channel rounded; `w = 0` gives `a`
/// exactly. Two channels at a time in the 0x00FF00FF lanes.
@inline(__always)
func mixPixels(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let iw = 256 &- w
    let rb = ((a & 0x00FF_00FF) &* iw &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
    let ag = ((a >> 8) & 0x00FF_00FF) &* iw &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080
    return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
}

/// `out[i] = row[(x + i) / 2]` for `i < n`: each scene pixel twice. From an even `x`, pixel
/// pairs are written as one 64-bit word (the loop vectorizes).
@inline(__always)
func expandPairs(_ row: UnsafePointer<UInt32>, from x: Int, count n: Int, into out: UnsafeMutablePointer<UInt32>) {
    var i = 0
    if x & 1 == 1 { out[0] = row[x >> 1]; i = 1 }
    let pairs = (n - i) >> 1
    let src = row + ((x + i) >> 1)
    let dst = UnsafeMutableRawPointer(out + i)
    for k in 0..<pairs {
        let v = UInt64(src[k])
        dst.storeBytes(of: v | v << 32, toByteOffset: k * 8, as: UInt64.self)
    }
    i += pairs * 2
    if i < n { out[i] = row[(x + i) >> 1] }
}

extension ScanoutCopier {
    /// The logical-screen rectangle that `rect` of a frame drawn at `scene` size changes when
    /// enlarged to `lw × lh` (grown as `ScaleAxis.screenRange` says).
    func screenRect(of rect: PixelRect, x xs: ScaleAxis, y ys: ScaleAxis) -> PixelRect {
        let cx = xs.screenRange(sceneFrom: rect.x, to: rect.maxX), cy = ys.screenRange(sceneFrom: rect.y, to: rect.maxY)
        return PixelRect(x: cx.lowerBound, y: cy.lowerBound, width: cx.count, height: cy.count)
    }

    /// Copies `rect` of `frame` (drawn smaller than the `lw × lh` logical screen) enlarged,
    /// rotated and converted: the scaled form of `copy`, in the same pass and write order (whole
    /// row segments, left to right; 64×64 tiles for 90°/270°). Returns the pixels written.
    func copyScaled(_ rect: PixelRect, from frame: Canvas, to buffer: ScanoutBuffer, rotation: DisplayRotation,
                    logicalWidth lw: Int, logicalHeight lh: Int) -> Int {
        let r = rect.intersection(frame.bounds)
        guard !r.isEmpty, frame.width <= lw, frame.height <= lh else { return 0 }
        let (xs, ys) = axes(sceneWidth: frame.width, sceneHeight: frame.height, screenWidth: lw, screenHeight: lh)
        let l = screenRect(of: r, x: xs, y: ys)
        guard !l.isEmpty else { return 0 }
        let p = rotation.physicalRect(l, logicalWidth: lw, logicalHeight: lh)
        guard p == p.intersection(PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)) else { return 0 }
        let src = UnsafePointer(frame.pixels), stride = frame.stride
        let sw = frame.width
        let doubling = xs.doubling && ys.doubling
        let scratch = self.scratch
        switch rotation {
        case .none, .upsideDown:
            let flip = rotation == .upsideDown
            let chunk = Self.tile * Self.tile
            let xi = xs.index, xn = xs.next, xw = xs.weight
            var py = p.y
            while py < p.maxY {
                let ly = flip ? lh - 1 - py : py
                let y0 = ys.index[ly], fy = ys.weight[ly]
                // Rows that sample the same scene row and weight are written from one scratch
                // row (doubling: two rows per scene row).
                var rows = 1
                while py + rows < p.maxY {
                    let l2 = flip ? lh - 1 - (py + rows) : py + rows
                    guard ys.index[l2] == y0, ys.weight[l2] == fy else { break }
                    rows += 1
                }
                if doubling {
                    let row = src + y0 * stride
                    var x = p.x
                    while x < p.maxX {
                        let n = min(chunk, p.maxX - x)
                        if flip {
                            let last = lw - 1 - x
                            for i in 0..<n { scratch[i] = row[(last - i) >> 1] }
                        } else {
                            expandPairs(row, from: x, count: n, into: scratch)
                        }
                        for k in 0..<rows { storeRow(scratch, count: n, to: buffer, x: x, y: py + k) }
                        x += n
                    }
                } else {
                    // The scene columns these rows read, mixed vertically once into `line`.
                    let lx0 = flip ? lw - p.maxX : p.x, lx1 = flip ? lw - 1 - p.x : p.maxX - 1
                    let c0 = xi[lx0], c1 = xn[lx1]
                    let line = lineBuffer(count: sw)
                    let a = src + y0 * stride, b = src + ys.next[ly] * stride
                    if fy == 0 {
                        (line + c0).update(from: a + c0, count: c1 - c0 + 1)
                    } else {
                        for c in c0...c1 { line[c] = mixPixels(a[c], b[c], fy) }
                    }
                    var x = p.x
                    while x < p.maxX {
                        let n = min(chunk, p.maxX - x)
                        if flip {
                            let last = lw - 1 - x
                            for i in 0..<n { let lx = last - i; scratch[i] = mixPixels(line[xi[lx]], line[xn[lx]], xw[lx]) }
                        } else {
                            for i in 0..<n { let lx = x + i; scratch[i] = mixPixels(line[xi[lx]], line[xn[lx]], xw[lx]) }
                        }
                        for k in 0..<rows { storeRow(scratch, count: n, to: buffer, x: x, y: py + k) }
                        x += n
                    }
                }
                py += rows
            }
        case .clockwise90, .clockwise270:
            let t = Self.tile
            let cw = rotation == .clockwise90
            var ty = p.y
            while ty < p.maxY {
                let th = min(t, p.maxY - ty)
                var tx = p.x
                while tx < p.maxX {
                    let tw = min(t, p.maxX - tx)
                    for row in 0..<th {
                        let py = ty + row
                        // 90°: physical (px, py) ← logical (py, lh − 1 − px); 270°: (lw − 1 − py, px).
                        let lx = cw ? py : lw - 1 - py
                        let x0 = xs.index[lx], x1 = xs.next[lx], fx = xs.weight[lx]
                        for col in 0..<tw {
                            let px = tx + col
                            let ly = cw ? lh - 1 - px : px
                            let y0 = ys.index[ly]
                            if doubling {
                                scratch[row * tw + col] = src[y0 * stride + x0]
                            } else {
                                let a = src + y0 * stride, b = src + ys.next[ly] * stride
                                scratch[row * tw + col] = mixPixels(mixPixels(a[x0], a[x1], fx), mixPixels(b[x0], b[x1], fx), ys.weight[ly])
                            }
                        }
                    }
                    for row in 0..<th { storeRow(scratch + row * tw, count: tw, to: buffer, x: tx, y: ty + row) }
                    tx += tw
                }
                ty += th
            }
        }
        return p.area
    }
}
