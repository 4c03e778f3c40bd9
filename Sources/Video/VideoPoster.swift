/// A video card's still face: the clip's first frame.
public enum VideoPoster {
    /// The first frame of `path` that decodes, scaled to `outputWidth × outputHeight`. Software
    /// decoding (a poster is one frame, on a card worker; the board's few hardware decoder
    /// contexts are left to playback). Reads only the beginning of the file. Throws `.empty` if
    /// no frame decodes, and the other `VideoError`s as `VideoProbe.probe` does.
    public static func firstFrame(path: String, outputWidth: Int, outputHeight: Int,
                                  limits: VideoLimits = VideoLimits()) throws -> VideoFrame {
        let decoder = try VideoDecoder(path: path, outputWidth: outputWidth, outputHeight: outputHeight,
                                       hardware: .off, threads: 1, limits: limits)
        guard let frame = try decoder.nextFrame() else {
            throw VideoError(path: path, kind: .empty,
                             reason: "no frame decodes: the \(decoder.info.codec) stream is empty or every frame is damaged")
        }
        return frame
    }
}
