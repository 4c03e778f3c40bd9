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

/// An immutable image in premultiplied ARGB8888 (0xAARRGGBB in a `UInt32`), with optional mip
/// levels (each half the size of the one before, down to 1×1) for minified drawing.
public final class Texture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Row-major pixels, `width * height` of them, owned by the texture.
    public let pixels: UnsafeMutablePointer<UInt32>
    /// Mip levels 1… (level 0 is the texture itself); empty until `buildMipLevels()`.
    public private(set) var mipLevels: [Texture] = []

    /// A texture of `width × height` transparent pixels.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "texture must have pixels")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0, count: width * height)
    }

    /// A texture whose pixels come from `fill(x, y)`.
    public convenience init(width: Int, height: Int, fill: (Int, Int) -> UInt32) {
        self.init(width: width, height: height)
        for y in 0..<height { for x in 0..<width { pixels[y * width + x] = fill(x, y) } }
    }

    deinit { pixels.deallocate() }

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
    public var byteCount: Int { width * height * 4 + mipLevels.reduce(0) { $0 + $1.byteCount } }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// Builds the mip chain with a 2×2 box filter on premultiplied values (idempotent).
    public func buildMipLevels() {
        guard mipLevels.isEmpty, width > 1 || height > 1 else { return }
        var levels: [Texture] = []
        var src: Texture = self
        while src.width > 1 || src.height > 1 {
            let w = max(1, src.width / 2), h = max(1, src.height / 2)
            let dst = Texture(width: w, height: h)
            for y in 0..<h {
                let y0 = min(src.height - 1, 2 * y), y1 = min(src.height - 1, 2 * y + 1)
                for x in 0..<w {
                    let x0 = min(src.width - 1, 2 * x), x1 = min(src.width - 1, 2 * x + 1)
                    dst.pixels[y * w + x] = Texture.average4(src[x0, y0], src[x1, y0], src[x0, y1], src[x1, y1])
                }
            }
            levels.append(dst)
            src = dst
        }
        mipLevels = levels
    }

    @inline(__always) static func average4(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let s = ((a >> shift) & 0xFF) + ((b >> shift) & 0xFF) + ((c >> shift) & 0xFF) + ((d >> shift) & 0xFF)
            out |= ((s + 2) / 4) << shift
        }
        return out
    }
}
