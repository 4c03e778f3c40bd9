import CFFmpeg
import Glibc

/// Decoded sound of a clip: interleaved signed 16-bit stereo at the decoder's output rate, and
/// the time of its first frame in the clip's (video) time.
public struct AudioChunk: Sendable {
    /// Seconds from the clip's start — the same origin as its video frames' times.
    public var time: Double
    /// Interleaved left, right.
    public var samples: [Int16]
    /// Stereo frames in `samples`.
    public var frames: Int { samples.count / 2 }
}

/// A clip's audio stream, decoded and converted by libswresample to interleaved 16-bit stereo at
/// `sampleRate`, chunk by chunk. Times are measured from the video stream's start, so a chunk at
/// time t belongs with the video frame at t. Opens the file on its own (a second demuxer beside
/// the video decoder's): the video path is untouched and each reads at its own pace.
public final class AudioDecoder {
    public let path: String
    public let sampleRate: Int
    /// The container's duration, when it says.
    public let duration: Double?
    /// The audio codec's decoder, e.g. `aac`.
    public let decoderName: String
    private let input: MediaInput
    private let streamIndex: Int32
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: UnsafeMutableRawPointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let timeBase: Double
    /// The video stream's start, in seconds: the clip's time 0.
    private let videoStart: Double
    private var sentEndOfStream = false
    private var flushed = false
    /// The time the next chunk starts at when a frame carries none.
    private var nextTime: Double?
    private var buffer: [Int16] = []

    /// Opens `path`'s best audio stream; throws `VideoError` (`.noAudioStream` when there is none).
    public init(path: String, sampleRate: Int, limits: VideoLimits = VideoLimits(),
                isCancelled: @escaping () -> Bool = { false }) throws {
        self.path = path
        self.sampleRate = sampleRate
        input = try MediaInput(path: path, limits: limits, isCancelled: isCancelled)
        let format = input.format!
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, input.streamIndex, nil, 0)
        guard index >= 0 else {
            throw VideoError(path: path, kind: .noAudioStream, reason: "no audio stream in this \(input.containerName) file; it plays silent")
        }
        streamIndex = index
        let stream = format.pointee.streams[Int(index)]!.pointee
        timeBase = stream.time_base.den > 0 ? Double(stream.time_base.num) / Double(stream.time_base.den) : 1.0 / 48_000
        let video = input.stream.pointee
        let videoBase = video.time_base.den > 0 ? Double(video.time_base.num) / Double(video.time_base.den) : 1.0 / 90_000
        videoStart = video.start_time == kc_nopts_value() ? 0 : Double(video.start_time) * videoBase
        duration = format.pointee.duration > 0 ? Double(format.pointee.duration) / Double(AV_TIME_BASE) : nil
        let id = stream.codecpar.pointee.codec_id
        guard let decoder = avcodec_find_decoder(id) else {
            throw VideoError(path: path, kind: .noDecoder, reason: "this FFmpeg has no decoder for its \(String(cString: avcodec_get_name(id))) audio")
        }
        decoderName = String(cString: decoder.pointee.name)
        codec = avcodec_alloc_context3(decoder)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let codec, frame != nil, packet != nil else {
            throw VideoError(path: path, kind: .unreadable, reason: "out of memory opening the audio decoder")
        }
        var rc = avcodec_parameters_to_context(codec, stream.codecpar)
        if rc >= 0 { rc = avcodec_open2(codec, decoder, nil) }
        guard rc >= 0 else {
            throw VideoError(path: path, kind: .noDecoder, failed: "the \(decoderName) audio decoder did not open", ffmpegCode: rc)
        }
        resampler = kc_swr_to_s16_stereo(codec, Int32(sampleRate))
        guard resampler != nil else {
            throw VideoError(path: path, kind: .corrupt, reason: "cannot convert its \(decoderName) audio to 16-bit stereo at \(sampleRate) Hz")
        }
    }

    deinit {
        if let resampler { kc_swr_free(resampler) }
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&codec)
    }

    /// The next decoded chunk (a frame's worth, converted); nil at the end of the stream.
    public func nextChunk() throws -> AudioChunk? {
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                let f = frame!.pointee
                let time: Double
                if f.best_effort_timestamp != kc_nopts_value() {
                    time = Double(f.best_effort_timestamp) * timeBase - videoStart
                } else {
                    time = nextTime ?? 0
                }
                guard let chunk = convert(frame, time: time) else { continue }
                return chunk
            }
            if received == kc_averror_eof() {
                // What the resampler still holds, once.
                if !flushed, let chunk = convert(nil, time: nextTime ?? 0) {
                    flushed = true
                    return chunk
                }
                return nil
            }
            if received != kc_averror_eagain() { continue }   // a damaged frame: skipped
            if sentEndOfStream { return nil }
            let read = av_read_frame(input.format, packet)
            if read < 0 {
                if read == kc_averror_exit() {
                    throw VideoError(path: path, kind: .unreadable, reason: "stopped while reading")
                }
                avcodec_send_packet(codec, nil)
                sentEndOfStream = true
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == streamIndex else { continue }
            _ = avcodec_send_packet(codec, packet)
        }
    }

    /// Back to the start: seeks the container and flushes the decoder and the resampler.
    public func rewind() throws {
        let result = av_seek_frame(input.format, -1, 0, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else {
            throw VideoError(path: path, kind: .corrupt, failed: "cannot seek back to the start of the clip's sound", ffmpegCode: result)
        }
        restart()
    }

    /// To clip time `time` (the video's time, as the chunks'): the audio stream's packet at or
    /// before it, then on; the decoder and the resampler flushed. The next chunk starts at or a
    /// little before `time` (an audio packet is some 20 ms).
    public func seek(to time: Double) throws {
        let timestamp = Int64(((max(0, time) + videoStart) / timeBase).rounded(.down))
        let result = av_seek_frame(input.format, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else {
            throw VideoError(path: path, kind: .corrupt, failed: "cannot seek to \(time) s in the clip's sound", ffmpegCode: result)
        }
        restart()
    }

    /// After a seek: the decoder and the resampler hold nothing from before it.
    private func restart() {
        avcodec_flush_buffers(codec)
        if let resampler { kc_swr_free(resampler) }
        resampler = kc_swr_to_s16_stereo(codec, Int32(sampleRate))
        sentEndOfStream = false
        flushed = false
        nextTime = nil
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>?, time: Double) -> AudioChunk? {
        guard let resampler else { return nil }
        let inFrames = frame.map { Int32($0.pointee.nb_samples) } ?? 0
        let capacity = Int(kc_swr_out_frames(resampler, inFrames)) + 32
        guard capacity > 0 else { return nil }
        if buffer.count < capacity * 2 { buffer = [Int16](repeating: 0, count: capacity * 2) }
        let n = buffer.withUnsafeMutableBufferPointer {
            kc_swr_convert_frame(resampler, frame, $0.baseAddress, Int32(capacity))
        }
        guard n > 0 else { return nil }
        nextTime = time + Double(n) / Double(sampleRate)
        return AudioChunk(time: time, samples: Array(buffer[0..<Int(n) * 2]))
    }
}
