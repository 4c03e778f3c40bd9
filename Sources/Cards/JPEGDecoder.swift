import CCardLibs
import Raster

/// JPEG through libjpeg-turbo's TurboJPEG API: the header is read first (size checked against
/// the limits), then the picture is decoded at the smallest of libjpeg's scaling factors (1/8,
/// 1/4, 3/8 … 1) that still covers the card, and turned upright by its EXIF orientation.
enum JPEGDecoder {
    /// Decodes `bytes` for drawing into a `boxWidth × boxHeight` card with `fit`.
    static func decode(_ bytes: [UInt8], file: String, fit: ImageFit, boxWidth: Int, boxHeight: Int,
                       limits: ImageLimits) throws -> Texture {
        guard let tj = tjInitDecompress() else {
            throw CardFailure(file: file, reason: "libjpeg-turbo could not start a decoder")
        }
        defer { tjDestroy(tj) }
        var width: Int32 = 0, height: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(tj, $0.baseAddress, UInt($0.count), &width, &height, &subsamp, &colorspace)
        }
        guard header == 0 else {
            throw CardFailure(file: file, reason: "broken JPEG header (\(errorText(tj)))")
        }
        try limits.check(width: Int(width), height: Int(height), fullDecode: false, file: file, format: "JPEG")
        let orientation = ExifOrientation.read(jpeg: bytes)
        // The box as the stored (unrotated) pixels see it.
        let (bw, bh) = orientation.swapsSides ? (boxHeight, boxWidth) : (boxWidth, boxHeight)
        let needed = fit.scale(imageWidth: Double(width), imageHeight: Double(height),
                               boxWidth: Double(bw), boxHeight: Double(bh))
        let (sw, sh) = scaledSize(width: Int(width), height: Int(height), atLeast: needed)
        let texture = Texture(width: sw, height: sh)
        let status = bytes.withUnsafeBufferPointer { src in
            tjDecompress2(tj, src.baseAddress, UInt(src.count),
                          UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self),
                          Int32(sw), Int32(sw * 4), Int32(sh), Int32(TJPF_BGRA.rawValue),
                          Int32(TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT))
        }
        guard status == 0 else {
            throw CardFailure(file: file, reason: "cannot decode JPEG (\(errorText(tj))); the file may be truncated or damaged")
        }
        return orientation.apply(to: texture)
    }

    /// The smallest size libjpeg-turbo can decode `width × height` at whose scale is at least
    /// `scale` (the full size when nothing smaller is big enough).
    static func scaledSize(width: Int, height: Int, atLeast scale: Double) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height), bestFactor = 1.0
        for k in 0..<Int(count) {
            let f = factors[k]
            let factor = Double(f.num) / Double(f.denom)
            guard factor <= 1, factor >= scale - 1e-9, factor < bestFactor else { continue }
            bestFactor = factor
            best = ((width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom),
                    (height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom))
        }
        return best
    }

    static func errorText(_ tj: tjhandle) -> String {
        guard let s = tjGetErrorStr2(tj) else { return "unknown error" }
        return String(cString: s)
    }
}
