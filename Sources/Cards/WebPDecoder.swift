import CCardLibs
import Raster

/// WebP through libwebp: size from the header first, then decoded straight to premultiplied
/// BGRA at the size the card needs (libwebp scales while decoding).
enum WebPDecoder {
    static func decode(_ bytes: [UInt8], file: String, fit: ImageFit, boxWidth: Int, boxHeight: Int,
                       limits: ImageLimits) throws -> Texture {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw CardFailure(file: file, reason: "libwebp version mismatch")
        }
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard status == VP8_STATUS_OK else {
            throw CardFailure(file: file, reason: "broken WebP header (\(describe(status)))")
        }
        let w = Int(config.input.width), h = Int(config.input.height)
        try limits.check(width: w, height: h, fullDecode: false, file: file, format: "WebP")
        if config.input.has_animation != 0 {
            throw CardFailure(file: file, reason: "animated WebP is not supported")
        }
        let s = min(1, fit.scale(imageWidth: Double(w), imageHeight: Double(h),
                                 boxWidth: Double(boxWidth), boxHeight: Double(boxHeight)))
        let sw = max(1, Int((Double(w) * s).rounded(.up))), sh = max(1, Int((Double(h) * s).rounded(.up)))
        let texture = Texture(width: sw, height: sh)
        if sw != w || sh != h {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(sw)
            config.options.scaled_height = Int32(sh)
        }
        config.output.colorspace = MODE_bgrA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(sw * 4)
        config.output.u.RGBA.size = sw * sh * 4
        let decoded = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        WebPFreeDecBuffer(&config.output)
        guard decoded == VP8_STATUS_OK else {
            throw CardFailure(file: file, reason: "cannot decode WebP (\(describe(decoded))); the file may be truncated or damaged")
        }
        return texture
    }

    static func describe(_ s: VP8StatusCode) -> String {
        switch s {
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_SUSPENDED: return "suspended"
        case VP8_STATUS_USER_ABORT: return "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data"
        default: return "error \(s.rawValue)"
        }
    }
}
