import CFFmpeg
import CVideoConvert
import RasterCore

/// A decoded frame in whatever software pixel format the decoder gives (YUV 4:2:0/4:2:2/4:4:4 at
/// 8 or 10 bits, NV12, RGB…) to an opaque premultiplied ARGB8888 `Texture` of exactly
/// `width × height`. YUV 4:2:0 at 8 bits (yuv420p, NV12) scaled down in BT.601 or BT.709 goes
/// through the fused converter (`CVideoConvert`: scale and colour in one pass, a tent filter as
/// libswscale's bilinear, only the shown columns); everything else through libswscale, bilinear.
/// The plan or context is rebuilt when the source size or format changes mid-stream. Hardware
/// surfaces (DRM_PRIME) are copied to memory before they get here.
///
/// The textures come from a `TexturePool`: once a clip plays, a frame is scaled into a texture
/// whose last picture nobody holds any more, not into a new one.
///
/// When only the middle `shownWidth` columns are looked at (a card that crops the sides of a wide
/// clip), only those are scaled, with `cropMargin` more either side, where that gives the same
/// pixels as scaling the whole width (`scaledColumns`); the columns left out hold nothing defined.
final class FrameScaler {
    let width: Int, height: Int
    /// The output columns anyone looks at.
    let shownColumns: Range<Int>
    /// Scaled frames alive at once at most: a player's queue (3), the frame shown, the frame
    /// read ahead in synchronous mode and the one being scaled.
    static let pooledFrames = 6
    /// Output columns scaled beyond the shown ones on each side: libswscale's filters for the
    /// first and last columns it writes see the cropped source's edge. 4 gives the same bytes as
    /// the whole width for ratios from 1:1 to 6:1 (1:1 needs 4; 2 is enough when scaling down).
    static let cropMargin = 4
    let pool: TexturePool
    /// The instruction set the fused converter uses at most (the CPU's best by default), or nil:
    /// libswscale for all frames, to compare with in tests.
    let fused: FusedConverterLevel?
    /// The fused converter's plan for the current source, when it covers it.
    private var plan: OpaquePointer?
    /// The output columns the plan makes.
    private var fusedColumns: Range<Int> = 0..<0
    /// Whether the last frame scaled went through the fused converter.
    var lastFrameWasFused: Bool { plan != nil }
    /// libswscale's context (an untyped handle: its type differs between FFmpeg 5.1 and 7.1).
    private var context: UnsafeMutableRawPointer?
    private typealias SourceKey = (width: Int32, height: Int32, format: Int32, colorspace: UInt32, range: UInt32)
    /// The source the plan was made for, and the one the context was.
    private var source: SourceKey?, swscaleSource: SourceKey?
    /// What the context scales: output columns, from source columns starting at `sourceX`.
    private var columns: (output: Range<Int>, sourceX: Int) = (0..<0, 0)

    /// Frames of `width × height` of which only the middle `shownWidth` columns (all when nil,
    /// or when `width - shownWidth` is odd: then the picture is not centred on whole pixels) are
    /// looked at. `fused: nil` uses libswscale for every frame.
    init(width: Int, height: Int, shownWidth: Int? = nil, fused: FusedConverterLevel? = .avx2) {
        precondition(width > 0 && height > 0, "video output must have pixels")
        self.width = width
        self.height = height
        self.fused = fused
        if let shown = shownWidth, shown > 0, shown < width, (width - shown) % 2 == 0 {
            shownColumns = (width - shown) / 2 ..< (width + shown) / 2
        } else {
            shownColumns = 0..<width
        }
        pool = TexturePool(width: width, height: height, capacity: Self.pooledFrames)
    }

    deinit {
        kc_sws_free(context)
        kc_yuv_plan_free(plan)
    }

    /// The fused converter's plan for `frame`'s source, or nil when it does not cover it: another
    /// pixel format, a matrix other than BT.601/709, no downscale horizontally, an upscale
    /// vertically, odd widths or a ratio beyond its filter (`kc_yuv_plan_create`). Only the shown
    /// columns, widened to even ones, are made.
    private func fusedPlan(for frame: UnsafeMutablePointer<AVFrame>) -> OpaquePointer? {
        let f = frame.pointee
        let bt709 = kc_matrix_is_bt709(kc_frame_matrix(frame))
        guard let fused, kc_pix_fmt_yuv420_layout(f.format) != 0, bt709 >= 0,
              width < Int(f.width), height <= Int(f.height) else { return nil }
        let x0 = shownColumns.lowerBound & ~1, x1 = min(width, (shownColumns.upperBound + 1) & ~1)
        fusedColumns = x0..<x1
        return kc_yuv_plan_create(f.width, f.height, Int32(width), Int32(height), Int32(x0), Int32(x1), bt709,
                                  kc_frame_full_range(frame), fused.rawValue)
    }

    /// Where the fused converter writes a frame: into `target`'s texture when it gives one on
    /// which every row and the made columns land, else into a texture of the pool. With the
    /// address of the frame's first pixel (before the texture's memory when columns on the left
    /// are not made: they are never written) and the row length in pixels.
    private func fusedDestination(_ target: FrameTarget?) -> (texture: Texture, origin: UnsafeMutablePointer<UInt32>, stride: Int) {
        if let target, let placed = target(width, height, fusedColumns),
           placed.y >= 0, placed.y + height <= placed.texture.height,
           placed.x + fusedColumns.lowerBound >= 0, placed.x + fusedColumns.upperBound <= placed.texture.width {
            let t = placed.texture
            return (t, t.pixels + placed.y * t.width + placed.x, t.width)
        }
        let t = pool.take().texture
        return (t, t.pixels, width)
    }

    /// The output columns libswscale writes for a source `sourceWidth` wide whose chroma is
    /// subsampled horizontally by `1 << chromaShift` (-1: its planes cannot be cropped), and the
    /// first source column they come from. The shown columns with `cropMargin` more either side
    /// when they start and end on even output columns (pairs share chroma) and map to whole
    /// source columns, the first on a chroma sample: then each output pixel sees the same source
    /// pixels with the same weights as in the whole-width scale. Else all columns from 0.
    func scaledColumns(sourceWidth: Int, chromaShift: Int) -> (output: Range<Int>, sourceX: Int) {
        let all = (0..<width, 0)
        guard shownColumns != 0..<width, chromaShift >= 0 else { return all }
        let a = max(0, shownColumns.lowerBound - Self.cropMargin), b = min(width, shownColumns.upperBound + Self.cropMargin)
        guard a % 2 == 0, b % 2 == 0 || b == width, (a * sourceWidth) % width == 0, (b * sourceWidth) % width == 0 else { return all }
        let sourceX = a * sourceWidth / width
        guard sourceX % (1 << chromaShift) == 0 else { return all }
        return (a..<b, sourceX)
    }

    /// The frame scaled into a texture of the pool (one nobody else holds), or into `target`'s
    /// when it gives one and the fused converter makes the frame; `path` names the file in errors.
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, path: String, into target: FrameTarget? = nil) throws -> Texture {
        let f = frame.pointee
        let key = (f.width, f.height, f.format, f.colorspace.rawValue, f.color_range.rawValue)
        if source.map({ $0 != key }) ?? true {
            kc_yuv_plan_free(plan)
            plan = fusedPlan(for: frame)
            source = key
        }
        if let plan {
            let (texture, origin, stride) = fusedDestination(target)
            let nv12 = kc_pix_fmt_yuv420_layout(f.format) == 2
            kc_yuv_plan_run(plan, f.data.0, f.linesize.0, f.data.1, f.linesize.1, nv12 ? nil : f.data.2, f.linesize.2,
                            UnsafeMutableRawPointer(origin).assumingMemoryBound(to: UInt8.self), Int32(stride * 4))
            return texture
        }
        if context == nil || swscaleSource.map({ $0 != key }) ?? true {
            columns = scaledColumns(sourceWidth: Int(f.width), chromaShift: Int(kc_pix_fmt_column_crop_shift(f.format)))
            let sourceWidth = Int32(columns.output.count * Int(f.width) / width)
            context = kc_sws_get_bgra(context, sourceWidth, f.height, f.format, Int32(columns.output.count), Int32(height))
            guard let context else {
                let name = av_get_pix_fmt_name(AVPixelFormat(f.format)).map { String(cString: $0) } ?? "format \(f.format)"
                throw VideoError(path: path, kind: .corrupt,
                                 reason: "cannot convert the decoder's \(name) frames of \(f.width)×\(f.height) to RGB (libswscale refused)")
            }
            kc_sws_set_colorspace(context, frame)
            swscaleSource = key
        }
        let texture = pool.take().texture
        let raw = UnsafeMutableRawPointer(texture.pixels + columns.output.lowerBound).assumingMemoryBound(to: UInt8.self)
        let rows = kc_sws_scale_columns_into(context, frame, Int32(columns.sourceX), raw, Int32(width * 4))
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

/// The instruction sets the fused converter has loops for (`CVideoConvert`); each gives the same
/// bytes, and a plan uses at most what the CPU has (AVX2 is checked at run time).
enum FusedConverterLevel: Int32 {
    case plainC = 0, sse2 = 1, avx2 = 2
}
