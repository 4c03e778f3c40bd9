/// What a video file is, as FFmpeg reads it from the container and the video stream's
/// parameters (no frame decoded).
public struct VideoInfo: Equatable, Sendable {
    /// The file, as given.
    public var path: String
    /// libavformat's name for the container, e.g. `"mov,mp4,m4a,3gp,3g2,mj2"` or `"matroska,webm"`.
    public var container: String
    /// libavcodec's name for the video codec, e.g. `"h264"`, `"vp9"`.
    public var codec: String
    /// The coded picture size, in pixels.
    public var width: Int, height: Int
    /// The size it is meant to be shown at: the width scaled by the sample aspect ratio
    /// (anamorphic video), the height unchanged. Equal to the coded size for square pixels.
    public var displayWidth: Int, displayHeight: Int
    /// Frames per second (> 0): the stream's average rate, else its base rate, else 25.
    public var frameRate: Double
    /// Length in seconds when the container knows it (the video stream's, else the file's).
    public var duration: Double?

    public init(path: String, container: String, codec: String, width: Int, height: Int,
                displayWidth: Int, displayHeight: Int, frameRate: Double, duration: Double?) {
        self.path = path
        self.container = container
        self.codec = codec
        self.width = width
        self.height = height
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.frameRate = frameRate
        self.duration = duration
    }
}
