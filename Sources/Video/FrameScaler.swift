import CFFmpeg
import RasterCore

/// libswscale from whatever software pixel format the decoder gives (YUV 4:2:0/4:2:2/4:4:4 at
/// 8 or 10 bits, NV12, RGB…) to an opaque premultiplied ARGB8888 `Texture` of exactly
/// `width × height`, bilinear. The context is rebuilt when the source size or format changes
/// mid-stream. Hardware surfaces (DRM_PRIME) are copied to memory before they get here.
///
/// The textures come from a `TexturePool`: once a clip plays, a frame is scaled into a texture
/// whose last picture nobody holds any more, not into a new one.
final class FrameScaler {
    let width: Int, height: Int
    /// Scaled frames alive at once at most: a player's queue (3), the frame shown, the frame
    /// read ahead in synchronous mode and the one being scaled.
    static let pooledFrames = 6
    let pool: TexturePool
    /// libswscale's context (an untyped handle: its type differs between FFmpeg 5.1 and 7.1).
    private var context: UnsafeMutableRawPointer?
    private var source: (width: Int32, height: Int32, format: Int32, colorspace: UInt32, range: UInt32)?

    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "video output must have pixels")
        self.width = width
        self.height = height
        pool = TexturePool(width: width, height: height, capacity: Self.pooledFrames)
    }

    deinit { kc_sws_free(context) }

    /// The frame scaled into a texture of the pool (one nobody else holds); `path` names the
    /// file in errors.
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, path: String) throws -> Texture {
        let f = frame.pointee
        let key = (f.width, f.height, f.format, f.colorspace.rawValue, f.color_range.rawValue)
        if context == nil || source! != key {
            context = kc_sws_get_bgra(context, f.width, f.height, f.format, Int32(width), Int32(height))
            guard let context else {
                let name = av_get_pix_fmt_name(AVPixelFormat(f.format)).map { String(cString: $0) } ?? "format \(f.format)"
                throw VideoError(path: path, kind: .corrupt,
                                 reason: "cannot convert the decoder's \(name) frames of \(f.width)×\(f.height) to RGB (libswscale refused)")
            }
            kc_sws_set_colorspace(context, frame)
            source = key
        }
        let texture = pool.take().texture
        let raw = UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self)
        let rows = kc_sws_scale_into(context, frame, raw, Int32(width * 4))
        guard rows == Int32(height) else {
            throw VideoError(path: path, kind: .corrupt, failed: "libswscale failed on a frame", ffmpegCode: rows)
        }
        if kc_pix_fmt_has_alpha(f.format) != 0 {
            // Video is shown opaque: a stream with alpha (VP9/ProRes 4444) has it dropped.
            for i in 0..<(width * height) { texture.pixels[i] |= 0xFF00_0000 }
        }
        return texture
    }
}
