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
