/// A rectangle of texels, `x0..<x1` × `y0..<y1`.
public struct TexelRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    /// True when the half-open texel range `xs` of row `y` lies inside.
    @inline(__always) public func contains(row y: Int, _ xs: Range<Int>) -> Bool {
        y >= y0 && y < y1 && xs.lowerBound >= x0 && xs.upperBound <= x1
    }
}

/// An image in premultiplied ARGB8888 (0xAARRGGBB in a `UInt32`), with optional mip levels
/// (each half the size of the one before, down to 1×1) for minified drawing.
///
/// Its pixels do not change once it is drawn, with one exception: a pooled texture
/// (`TexturePool`) is rewritten in place for a new picture once nobody else holds it, after
/// `willRewritePixels()`, which moves `generation` on (the compositor's change detection looks
/// at it) and makes the opaque regions and mip levels be worked out again.
public final class Texture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Row-major pixels, `width * height` of them, owned by the texture.
    public let pixels: UnsafeMutablePointer<UInt32>
    /// Mip levels 1… (level 0 is the texture itself) made from the current pixels; empty until
    /// `buildMipLevels()` (or, on demand, until `mipLevel(_:)` is asked for them).
    public var mipLevels: [Texture] { Array(levels.prefix(freshLevels)) }
    /// The level textures made so far (kept when the pixels are rewritten, to be refilled).
    private var levels: [Texture] = []
    /// How many of `levels` were made from the current pixels.
    private var freshLevels = 0
    /// Levels are made when `mipLevel(_:)` first asks for them (`buildMipLevelsOnDemand()`).
    private var levelsOnDemand = false
    /// How many times the pixels were rewritten in place (`willRewritePixels()`): the same
    /// texture with another generation is another picture.
    public private(set) var generation = 0

    /// A texture of `width × height` transparent pixels.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "texture must have pixels")
        self.width = width
        self.height = height
        pixels = ZeroedPixels.allocate(count: width * height)
    }

    /// A texture whose pixels come from `fill(x, y)`.
    public convenience init(width: Int, height: Int, fill: (Int, Int) -> UInt32) {
        self.init(width: width, height: height)
        for y in 0..<height { for x in 0..<width { pixels[y * width + x] = fill(x, y) } }
    }

    deinit { ZeroedPixels.release(pixels) }

    /// Up to two texel rectangles in which every texel is fully opaque (alpha 255): the longest
    /// run of fully opaque rows (full width) and the longest run of fully opaque columns (full
    /// height). For a card with rounded corners they form a cross covering all but the corners;
    /// for an opaque photo the first is the whole texture. The compositor uses them to skip
    /// pixels hidden behind opaque cards and to copy opaque 1:1 rows without blending.
    /// Computed on first use; the pixels must not change afterwards.
    public var opaqueRegions: [TexelRect] {
        if let cached = opaqueCache { return cached }
        let computed = Texture.findOpaqueRegions(pixels, width: width, height: height)
        opaqueCache = computed
        return computed
    }
    private var opaqueCache: [TexelRect]?

    static func findOpaqueRegions(_ p: UnsafeMutablePointer<UInt32>, width: Int, height: Int) -> [TexelRect] {
        var columnOpaque = [Bool](repeating: true, count: width)
        var bestRows = 0..<0, runStart = 0
        for y in 0..<height {
            let row = p + y * width
            var rowOpaque = true
            for x in 0..<width where row[x] < 0xFF00_0000 { rowOpaque = false; columnOpaque[x] = false }
            if !rowOpaque { runStart = y + 1 } else if y + 1 - runStart > bestRows.count { bestRows = runStart..<(y + 1) }
        }
        var bestColumns = 0..<0
        runStart = 0
        for x in 0..<width {
            if !columnOpaque[x] { runStart = x + 1 } else if x + 1 - runStart > bestColumns.count { bestColumns = runStart..<(x + 1) }
        }
        var regions: [TexelRect] = []
        if !bestRows.isEmpty { regions.append(TexelRect(x0: 0, y0: bestRows.lowerBound, x1: width, y1: bestRows.upperBound)) }
        if !bestColumns.isEmpty && !(bestRows.count == height) {
            regions.append(TexelRect(x0: bestColumns.lowerBound, y0: 0, x1: bestColumns.upperBound, y1: height))
        }
        return regions
    }

    /// Bytes held by this texture and its mip levels (for the card cache's byte bound).
    public var byteCount: Int { width * height * 4 + levels.reduce(0) { $0 + $1.byteCount } }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// Builds the mip chain with a 2×2 box filter on premultiplied values (idempotent).
    public func buildMipLevels() {
        refreshLevels(upTo: Texture.mipChainLength(width: width, height: height))
    }

    /// Leaves the mip levels to be made when the compositor first draws this texture minified
    /// (`mipLevel(_:)`, on the drawing thread) instead of now: a video frame shown 1:1 never
    /// pays for them. The texture must then be drawn by one thread at a time.
    public func buildMipLevelsOnDemand() { levelsOnDemand = true }

    /// How many mip levels the compositor may pick from: the levels built, or the whole chain
    /// when they are made on demand.
    public var mipLevelCount: Int {
        levelsOnDemand ? Texture.mipChainLength(width: width, height: height) : freshLevels
    }

    /// Mip level `level` (1…`mipLevelCount`), made first from the current pixels when it is not
    /// yet (on demand, or after `willRewritePixels()`).
    public func mipLevel(_ level: Int) -> Texture {
        if freshLevels < level { refreshLevels(upTo: level) }
        return levels[level - 1]
    }

    /// The pixels are about to be rewritten in place (a pooled texture reused for a new picture,
    /// by the one thread that holds it): `generation` moves on, and the opaque regions and the
    /// mip levels are worked out again from the new pixels (the levels' memory is reused).
    public func willRewritePixels() {
        generation &+= 1
        opaqueCache = nil
        if freshLevels > 0 { levelsOnDemand = true }
        freshLevels = 0
    }

    /// Levels in a full chain for `width × height`: halving down to 1×1.
    static func mipChainLength(width: Int, height: Int) -> Int {
        var w = width, h = height, n = 0
        while w > 1 || h > 1 { w = max(1, w / 2); h = max(1, h / 2); n += 1 }
        return n
    }

    /// Makes levels `freshLevels + 1 … upTo` from the current pixels, reusing level textures
    /// already allocated.
    private func refreshLevels(upTo count: Int) {
        while freshLevels < count {
            let src = freshLevels == 0 ? self : levels[freshLevels - 1]
            if levels.count == freshLevels {
                levels.append(Texture(width: max(1, src.width / 2), height: max(1, src.height / 2)))
            }
            Texture.fillMipLevel(levels[freshLevels], from: src)
            freshLevels += 1
        }
    }

    /// `dst` (half of `src`, rounded down, at least 1) as the 2×2 box filter of `src`; the last
    /// row or column is used twice where `src` has only one.
    static func fillMipLevel(_ dst: Texture, from src: Texture) {
        let w = dst.width, h = dst.height, sw = src.width, sh = src.height
        // Columns whose two source texels both exist (all of them unless `src` is one wide).
        let pairs = min(w, sw / 2)
        for y in 0..<h {
            let row0 = src.pixels + min(sh - 1, 2 * y) * sw
            let row1 = src.pixels + min(sh - 1, 2 * y + 1) * sw
            let out = dst.pixels + y * w
            for x in 0..<pairs {
                out[x] = average4(row0[2 * x], row0[2 * x + 1], row1[2 * x], row1[2 * x + 1])
            }
            for x in pairs..<w {
                let x0 = min(sw - 1, 2 * x), x1 = min(sw - 1, 2 * x + 1)
                out[x] = average4(row0[x0], row0[x1], row1[x0], row1[x1])
            }
        }
    }

    /// Each channel of the four pixels averaged, rounded half up: `(a + b + c + d + 2) / 4`.
    /// Two channels at a time in the 16-bit halves of a 32-bit word (4 × 255 + 2 fits in one),
    /// so a pixel costs a few additions instead of four channels' worth of shifts (docs/start-up.md,
    /// stop 48: the first frame's loading faces spent most of their time here).
    @inline(__always) static func average4(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        let lanes: UInt32 = 0x00FF_00FF, half: UInt32 = 0x0002_0002
        let blueRed = (a & lanes) &+ (b & lanes) &+ (c & lanes) &+ (d & lanes) &+ half
        let greenAlpha = ((a >> 8) & lanes) &+ ((b >> 8) & lanes) &+ ((c >> 8) & lanes) &+ ((d >> 8) & lanes) &+ half
        return ((blueRed >> 2) & lanes) | (((greenAlpha >> 2) & lanes) << 8)
    }
}
