/// Bounds on what a video file may make the decoder allocate, checked against the stream's
/// coded size before any frame is allocated.
public struct VideoLimits: Equatable, Sendable {
    /// Largest coded width × height (default 8192 × 4320, "8K"). A decoded frame of that size
    /// holds about 53 MB in 4:2:0 and the decoder keeps several.
    public var maxPixels: Int

    public init() { maxPixels = 8192 * 4320 }

    /// Throws `.tooLarge` (or `.corrupt` for a size that is not positive) unless a
    /// `width × height` stream may be decoded.
    func check(width: Int, height: Int, path: String, codec: String) throws {
        guard width > 0, height > 0 else {
            throw VideoError(path: path, kind: .corrupt,
                             reason: "the \(codec) stream does not say its picture size (\(width)×\(height)); the file may be damaged")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw VideoError(path: path, kind: .tooLarge,
                             reason: "video is \(width)×\(height) pixels, above the limit of \(maxPixels) pixels "
                                 + "(\(Self.megapixels(maxPixels)) MP); refused before decoding")
        }
    }

    static func megapixels(_ n: Int) -> String {
        let mp = Double(n) / 1_000_000
        return mp == mp.rounded() ? String(Int(mp)) : String(Double(Int(mp * 10)) / 10)
    }
}
