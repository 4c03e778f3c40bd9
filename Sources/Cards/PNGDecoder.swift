import CCardLibs
import Raster

/// PNG through libpng's simplified API (which keeps libpng's longjmp error handling inside C):
/// the header first (size checked against the limits), then the full picture, premultiplied.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], file: String, limits: ImageLimits) throws -> Texture {
        // The IHDR chunk comes first: check the claimed size before libpng reads any further.
        if let (w, h) = headerSize(bytes) {
            try limits.check(width: w, height: h, fullDecode: true, file: file, format: "PNG")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else {
            throw CardFailure(file: file, reason: "broken PNG header (\(message(image)))")
        }
        try limits.check(width: Int(image.width), height: Int(image.height), fullDecode: true, file: file, format: "PNG")
        // BGRA bytes are 0xAARRGGBB little-endian words; libpng gives straight alpha for 8 bits.
        image.format = PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR
        let w = Int(image.width), h = Int(image.height)
        let texture = Texture(width: w, height: h)
        let done = bytes.withUnsafeBytes { _ in
            png_image_finish_read(&image, nil, texture.pixels, Int32(w * 4), nil)
        }
        guard done != 0 else {
            throw CardFailure(file: file, reason: "cannot decode PNG (\(message(image))); the file may be truncated or damaged")
        }
        premultiply(texture)
        return texture
    }

    /// Width and height from the IHDR chunk, if the file starts with one.
    static func headerSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        return (be32(16), be32(20))
    }

    static func premultiply(_ t: Texture) {
        let n = t.width * t.height
        for i in 0..<n {
            let p = t.pixels[i]
            let a = p >> 24
            if a == 255 { continue }
            if a == 0 { t.pixels[i] = 0; continue }
            let r = ((p >> 16) & 0xFF) * a + 127, g = ((p >> 8) & 0xFF) * a + 127, b = (p & 0xFF) * a + 127
            t.pixels[i] = a << 24 | ((r + (r >> 8)) >> 8) << 16 | ((g + (g >> 8)) >> 8) << 8 | ((b + (b >> 8)) >> 8)
        }
    }

    static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "unknown error" : text
        }
    }
}
