/// Whether a decoder may use the machine's video hardware.
public enum HardwareDecode: String, Sendable, CaseIterable {
    /// FFmpeg's V4L2 memory-to-memory decoder for the codec (`h264_v4l2m2m` on a Raspberry Pi)
    /// when libavcodec has one and it opens; otherwise software, with the reason recorded.
    case auto
    /// Software decoding only.
    case off
}
