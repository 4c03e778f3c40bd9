import CFFmpeg

/// Reads what a video file is without decoding a frame: for `check-config` and for deciding how
/// to draw a video card.
public enum VideoProbe {
    /// The container, codec, size, frame rate and duration of `path`'s video stream. Throws a
    /// `VideoError` when the file cannot be read, is not a video container FFmpeg knows, has no
    /// video stream, is larger than `limits`, or needs a decoder this machine's libavcodec lacks.
    public static func probe(path: String, limits: VideoLimits = VideoLimits()) throws -> VideoInfo {
        let input = try MediaInput(path: path, limits: limits)
        let info = VideoInfo(input: input)
        guard VideoCapabilities.softwareCodec(for: input.codecParameters.pointee.codec_id) != nil else {
            throw VideoError.noDecoder(path: path, codec: info.codec)
        }
        return info
    }
}

extension VideoError {
    static func noDecoder(path: String, codec: String) -> VideoError {
        VideoError(path: path, kind: .noDecoder,
                   reason: "no decoder for codec '\(codec)' on this machine (ffmpeg -decoders lists them)")
    }
}

extension VideoInfo {
    /// The info of `input`'s chosen video stream.
    init(input: MediaInput) {
        let stream = input.stream
        let par = input.codecParameters.pointee
        let width = Int(par.width), height = Int(par.height)
        var sar = av_guess_sample_aspect_ratio(input.format, stream, nil)
        if sar.num <= 0 || sar.den <= 0 { sar = AVRational(num: 1, den: 1) }
        let displayWidth = max(1, Int((Double(width) * Double(sar.num) / Double(sar.den)).rounded()))
        var rate = 0.0
        for r in [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate] where r.num > 0 && r.den > 0 {
            let value = Double(r.num) / Double(r.den)
            if value > 0 && value <= 1000 { rate = value; break }
        }
        var duration: Double?
        let tb = stream.pointee.time_base
        if stream.pointee.duration > 0, stream.pointee.duration != kc_nopts_value(), tb.num > 0, tb.den > 0 {
            duration = Double(stream.pointee.duration) * Double(tb.num) / Double(tb.den)
        } else if let format = input.format, format.pointee.duration > 0, format.pointee.duration != kc_nopts_value() {
            duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        self.init(path: input.path, container: input.containerName, codec: codecName(par.codec_id),
                  width: width, height: height, displayWidth: displayWidth, displayHeight: height,
                  frameRate: rate > 0 ? rate : 25, duration: duration)
    }
}
