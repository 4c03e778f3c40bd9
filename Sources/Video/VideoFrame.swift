import RasterCore

/// One decoded picture, scaled to the size asked for, with when it is shown.
public struct VideoFrame {
    /// Premultiplied ARGB8888, opaque (alpha 255 everywhere).
    public let texture: Texture
    /// When the frame starts, in seconds from the clip's first frame. A `VideoDecoder` starts
    /// again from 0 after `rewind()`; a looping `VideoPlayer` adds the clip's length for each
    /// loop, so its times keep increasing.
    public let time: Double
    /// How long it is shown, in seconds (the container's value, else 1 / frame rate).
    public let duration: Double

    public init(texture: Texture, time: Double, duration: Double) {
        self.texture = texture
        self.time = time
        self.duration = duration
    }
}
