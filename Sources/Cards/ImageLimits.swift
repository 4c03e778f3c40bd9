/// Bounds on what an image file may make the renderer allocate. Checked from the file size and
/// the image header, before any pixel memory is allocated.
public struct ImageLimits: Equatable, Sendable {
    /// Largest file read (bytes).
    public var maxFileBytes: Int
    /// Largest width × height an image header may claim (any format). JPEG and WebP decode at a
    /// reduced size, so their memory stays near the card's size even for big sources.
    public var maxPixels: Int
    /// Largest width × height of a format decoded at full size (PNG) — its decode buffer holds
    /// 4 bytes per pixel, so 32 MP is 128 MB for a moment on a worker.
    public var maxFullDecodePixels: Int
    /// Largest side, in pixels, of any image.
    public var maxSide: Int

    public init(maxFileBytes: Int = 128 << 20, maxPixels: Int = 100_000_000,
                maxFullDecodePixels: Int = 32_000_000, maxSide: Int = 30_000) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
        self.maxFullDecodePixels = maxFullDecodePixels
        self.maxSide = maxSide
    }

    /// Throws unless a `width × height` image (as its header claims) may be decoded;
    /// `fullDecode` applies the tighter bound of formats without reduced-size decoding.
    func check(width: Int, height: Int, fullDecode: Bool, file: String, format: String) throws {
        guard width > 0, height > 0 else {
            throw CardFailure(file: file, reason: "\(format) header claims an empty image (\(width)×\(height))")
        }
        if width > maxSide || height > maxSide {
            throw CardFailure(file: file, reason: "\(format) is \(width)×\(height) pixels, more than \(maxSide) pixels a side; "
                + "refused before decoding")
        }
        let limit = fullDecode ? min(maxPixels, maxFullDecodePixels) : maxPixels
        if width * height > limit {
            let which = limit < maxPixels ? " for a \(format), which is decoded at full size" : ""
            throw CardFailure(file: file, reason: "\(format) is \(width)×\(height) pixels (\(Self.megapixels(width * height)) megapixels), "
                + "above the limit of \(Self.megapixels(limit)) megapixels\(which); refused before decoding")
        }
    }

    /// `0.5`, `32`, `1.92`: millions of pixels as people write them (not rounded down to 0).
    static func megapixels(_ pixels: Int) -> String {
        let mp = (Double(pixels) / 10_000).rounded() / 100
        return mp == mp.rounded() ? String(Int(mp)) : String(mp)
    }
}
