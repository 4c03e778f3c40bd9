import CFFmpeg

/// FFmpeg's message for an `AVERROR` code (what `av_err2str` gives in C).
func ffmpegErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    return String(cString: kc_err2str(code, &buffer, buffer.count))
}

/// libavcodec's name for a codec id ("h264"), or "unknown".
func codecName(_ id: AVCodecID) -> String {
    guard let name = avcodec_get_name(id) else { return "unknown" }
    return String(cString: name)
}
