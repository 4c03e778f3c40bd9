import CFFmpeg
import RasterCore

/// Decodes one video file frame by frame, scaled to a fixed output size. Used by one thread at
/// a time (a card worker for a poster, a `VideoPlayer`'s thread for playback).
///
/// The file is opened through a custom `AVIOContext` (see `MediaInput`); the stream's coded size
/// is checked against `VideoLimits` before any frame is allocated. Damaged packets are skipped
/// and counted as the `ffmpeg` command does; 64 in a row without a picture end decoding with
/// `.corrupt`. A file that ends in damaged data (truncated) gives the frames before the damage and
/// then throws `.corrupt`; a clean end of file returns nil.
public final class VideoDecoder {
    public let info: VideoInfo
    /// The libavcodec decoder running: `"h264"` (software) or `"h264_v4l2m2m"` (V4L2 hardware).
    public let decoderName: String
    public let isHardware: Bool
    /// Why no hardware decoder runs under `.auto`; nil when one runs or hardware is `.off`.
    public let fallbackReason: String?

    let input: MediaInput
    private let scaler: FrameScaler
    /// Where frames are scaled straight into when it gives a texture (a card's face).
    private let target: FrameTarget?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var memoryFrame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let timeBase: Double
    private let startPTS: Int64
    private var sentEndOfStream = false
    private var readError: Int32?
    private var lastTime: Double?
    private var lastDuration = 0.0
    private var consecutiveBad = 0
    /// Packets and frames the decoder rejected and that were skipped (since opening).
    private(set) var badPackets = 0
    /// Frames returned by `nextFrame` or `skipFrame` since the last rewind.
    private(set) var framesSinceRewind = 0
    /// How many damaged packets in a row end decoding.
    static let maxConsecutiveBadPackets = 64

    /// Opens `path` and its decoder; frames come out `outputWidth × outputHeight`. `threads` is
    /// the software decoder's thread count. Throws a `VideoError` as `VideoProbe.probe` does.
    public convenience init(path: String, outputWidth: Int, outputHeight: Int, hardware: HardwareDecode = .auto,
                            threads: Int = 1, limits: VideoLimits = VideoLimits()) throws {
        try self.init(path: path, outputSize: { _ in (outputWidth, outputHeight) }, hardware: hardware,
                      threads: threads, limits: limits, isCancelled: { false })
    }

    /// Opens `path`; frames come out at the size `outputSize` gives for the clip (known only once
    /// the file is open: a card decodes a clip at the size it draws it, which depends on the
    /// clip's aspect ratio). With `shownWidth`, only the middle `shownWidth` columns of each frame
    /// are looked at (a card that crops a wide clip's sides): the others may be left unscaled,
    /// holding nothing defined (`FrameScaler`). With `target`, a frame the fused converter makes
    /// is scaled into the texture it gives (`FrameTarget`).
    public convenience init(path: String, outputSize: (VideoInfo) -> (width: Int, height: Int), shownWidth: Int? = nil,
                            target: FrameTarget? = nil, hardware: HardwareDecode = .auto, threads: Int = 1,
                            limits: VideoLimits = VideoLimits()) throws {
        try self.init(path: path, outputSize: outputSize, shownWidth: shownWidth, target: target, hardware: hardware,
                      threads: threads, limits: limits, isCancelled: { false })
    }

    /// As the public initialisers; `isCancelled` is polled before every read from the file.
    /// `fused`: the fused converter's instruction set at most, nil for libswscale on every frame
    /// (`FrameScaler`), for tests to compare.
    init(path: String, outputSize: (VideoInfo) -> (width: Int, height: Int), shownWidth: Int? = nil, target: FrameTarget? = nil,
         hardware: HardwareDecode, threads: Int, limits: VideoLimits, fused: FusedConverterLevel? = .avx2,
         isCancelled: @escaping () -> Bool) throws {
        self.target = target
        input = try MediaInput(path: path, limits: limits, isCancelled: isCancelled)
        info = VideoInfo(input: input)
        let size = outputSize(info)
        scaler = FrameScaler(width: max(1, size.width), height: max(1, size.height), shownWidth: shownWidth, fused: fused)
        let stream = input.stream.pointee
        timeBase = stream.time_base.den > 0 ? Double(stream.time_base.num) / Double(stream.time_base.den) : 1.0 / 90_000
        startPTS = stream.start_time == kc_nopts_value() ? 0 : stream.start_time
        let opened = try Self.openCodec(input: input, info: info, hardware: hardware, threads: threads)
        codec = opened.context
        decoderName = opened.name
        isHardware = opened.isHardware
        fallbackReason = opened.fallbackReason
        frame = av_frame_alloc()
        memoryFrame = av_frame_alloc()
        packet = av_packet_alloc()
        guard frame != nil, memoryFrame != nil, packet != nil else {
            throw VideoError(path: path, kind: .unreadable, reason: "out of memory opening the decoder")
        }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        av_frame_free(&memoryFrame)
        avcodec_free_context(&codec)
    }

    /// What `input` reads (bytes, seeks) so far.
    var readStatistics: ReadStatistics { input.statistics }
    /// Textures the scaler has made so far (its pool's): for tests.
    var scaledTextureAllocations: Int { scaler.pool.allocations }
    /// Whether the last frame went through the fused converter rather than libswscale: for tests.
    var lastFrameWasFused: Bool { scaler.lastFrameWasFused }

    /// The next frame, scaled to the output size with opaque alpha; nil at the end of the stream.
    public func nextFrame() throws -> VideoFrame? {
        guard try decode() else { return nil }
        let (time, duration) = timing()
        defer { av_frame_unref(frame) }
        let texture = try scaler.scale(try memoryImage(), path: info.path, into: target)
        return VideoFrame(texture: texture, time: time, duration: duration)
    }

    /// Decodes the next frame without scaling or converting it (to drop a late frame); its
    /// time, nil at the end of the stream.
    public func skipFrame() throws -> Double? {
        guard try decode() else { return nil }
        defer { av_frame_unref(frame) }
        return timing().time
    }

    /// Back to the first frame: seeks the container to the stream's start and flushes the
    /// decoder. Times start again from 0.
    public func rewind() throws {
        let index = input.streamIndex
        var result = avformat_seek_file(input.format, index, Int64.min, startPTS, startPTS, 0)
        if result < 0 { result = av_seek_frame(input.format, index, startPTS, AVSEEK_FLAG_BACKWARD) }
        guard result >= 0 else {
            throw VideoError(path: info.path, kind: .corrupt, failed: "cannot seek back to the start of the clip",
                             ffmpegCode: result)
        }
        avcodec_flush_buffers(codec)
        sentEndOfStream = false
        readError = nil
        lastTime = nil
        lastDuration = 0
        consecutiveBad = 0
        framesSinceRewind = 0
    }

    /// Time of the frame after the last one returned, as far as it can be predicted (the last
    /// frame's time + duration); nil before the first frame.
    var predictedNextTime: Double? { lastTime.map { $0 + lastDuration } }
    /// The last frame's duration, or 1 / frame rate before any.
    var expectedFrameDuration: Double { lastDuration > 0 ? lastDuration : 1 / info.frameRate }

    // MARK: - Decoding

    /// Leaves a decoded frame in `frame`; false at the end of the stream.
    private func decode() throws -> Bool {
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                consecutiveBad = 0
                framesSinceRewind += 1
                return true
            }
            if received == kc_averror_eof() {
                if let error = readError {
                    readError = nil
                    throw VideoError(path: info.path, kind: error == kc_averror(EIO) ? .unreadable : .corrupt,
                                     failed: "the file ends in damaged or missing data after \(framesSinceRewind) frames",
                                     ffmpegCode: error, then: "; it may be truncated")
                }
                return false
            }
            if received != kc_averror_eagain() {
                try countBadPacket(received)
                continue
            }
            if sentEndOfStream { return false }
            let read = av_read_frame(input.format, packet)
            if read < 0 {
                if read == kc_averror_exit() {
                    throw VideoError(path: info.path, kind: .unreadable, reason: "stopped while reading")
                }
                if read != kc_averror_eof() { readError = read }
                avcodec_send_packet(codec, nil)   // drain what the decoder holds
                sentEndOfStream = true
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == input.streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != kc_averror_eagain() { try countBadPacket(sent) }
        }
    }

    private func countBadPacket(_ code: Int32) throws {
        badPackets += 1
        consecutiveBad += 1
        if consecutiveBad >= Self.maxConsecutiveBadPackets {
            throw VideoError(path: info.path, kind: .corrupt,
                             failed: "\(consecutiveBad) packets in a row did not decode", ffmpegCode: code,
                             then: "; the \(info.codec) stream is damaged")
        }
    }

    /// The current frame's time and duration, in seconds from the clip's start.
    private func timing() -> (time: Double, duration: Double) {
        let f = frame!.pointee
        let ticks = kc_frame_duration(frame)
        let duration = ticks > 0 ? Double(ticks) * timeBase : 1 / info.frameRate
        var time: Double
        if f.best_effort_timestamp != kc_nopts_value() {
            time = max(0, Double(f.best_effort_timestamp - startPTS) * timeBase)
        } else {
            time = lastTime.map { $0 + lastDuration } ?? 0
        }
        if let last = lastTime, time < last { time = last + lastDuration }   // never backwards
        lastTime = time
        lastDuration = duration
        return (time, duration)
    }

    /// The current frame in memory: itself, or a hardware surface copied down.
    private func memoryImage() throws -> UnsafeMutablePointer<AVFrame> {
        guard kc_pix_fmt_is_hardware(frame!.pointee.format) != 0 else { return frame! }
        av_frame_unref(memoryFrame)
        let copied = av_hwframe_transfer_data(memoryFrame, frame, 0)
        guard copied >= 0 else {
            let name = av_get_pix_fmt_name(AVPixelFormat(frame!.pointee.format)).map { String(cString: $0) } ?? "hardware"
            throw VideoError(path: info.path, kind: .corrupt,
                             failed: "\(decoderName) gives \(name) frames that cannot be copied to memory",
                             ffmpegCode: copied, then: "; set hardware decode off")
        }
        return memoryFrame!
    }

    // MARK: - Opening the codec

    private struct OpenedCodec {
        var context: UnsafeMutablePointer<AVCodecContext>
        var name: String
        var isHardware: Bool
        var fallbackReason: String?
    }

    private static func openCodec(input: MediaInput, info: VideoInfo, hardware: HardwareDecode,
                                  threads: Int) throws -> OpenedCodec {
        let id = input.codecParameters.pointee.codec_id
        var fallback: String?
        if hardware == .auto {
            if let v4l2 = v4l2Decoder(for: id) {
                let name = String(cString: v4l2.pointee.name)
                switch open(v4l2, input: input, threads: 0) {
                case .success(let ctx): return OpenedCodec(context: ctx, name: name, isHardware: true, fallbackReason: nil)
                case .failure(let failure):
                    // libavcodec says EINVAL when no device takes the codec; say which case it is.
                    fallback = VideoCapabilities.m2mDevices().isEmpty
                        ? "\(name) has no V4L2 memory-to-memory device (/dev/video*) to run on"
                        : "\(name) did not open (\(ffmpegErrorText(failure.code)))"
                }
            } else {
                fallback = "no V4L2 decoder \(info.codec)_v4l2m2m in this FFmpeg"
            }
        }
        guard let software = VideoCapabilities.softwareCodec(for: id) else {
            throw VideoError.noDecoder(path: info.path, codec: info.codec)
        }
        switch open(software, input: input, threads: max(1, threads)) {
        case .success(let ctx):
            return OpenedCodec(context: ctx, name: String(cString: software.pointee.name), isHardware: false,
                               fallbackReason: fallback)
        case .failure(let failure):
            throw VideoError(path: info.path, kind: .corrupt,
                             failed: "the \(info.codec) decoder refused the stream's parameters", ffmpegCode: failure.code)
        }
    }

    struct AVFailure: Error { var code: Int32 }

    private static func open(_ decoder: UnsafePointer<AVCodec>, input: MediaInput,
                             threads: Int) -> Result<UnsafeMutablePointer<AVCodecContext>, AVFailure> {
        guard let ctx = avcodec_alloc_context3(decoder) else { return .failure(AVFailure(code: kc_averror(ENOMEM))) }
        var result = avcodec_parameters_to_context(ctx, input.codecParameters)
        if result >= 0 {
            ctx.pointee.pkt_timebase = input.stream.pointee.time_base
            if threads > 0 { ctx.pointee.thread_count = Int32(threads) }
            result = avcodec_open2(ctx, decoder, nil)
        }
        guard result >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&doomed)
            return .failure(AVFailure(code: result))
        }
        return .success(ctx)
    }

    /// libavcodec's V4L2 memory-to-memory decoder for `id` (`h264_v4l2m2m`, `mpeg2_v4l2m2m`…), if
    /// it was built with one. Found by codec id, since the names do not always follow the codec's.
    static func v4l2Decoder(for id: AVCodecID) -> UnsafePointer<AVCodec>? {
        var state: UnsafeMutableRawPointer?
        while let c = av_codec_iterate(&state) {
            if c.pointee.id == id, av_codec_is_decoder(c) != 0, String(cString: c.pointee.name).hasSuffix("_v4l2m2m") {
                return c
            }
        }
        return nil
    }
}
