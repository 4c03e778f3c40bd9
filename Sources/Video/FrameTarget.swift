import RasterCore

/// Where a frame may be scaled straight into instead of a texture of the decoder's own: a card's
/// face whose picture area is the frame (`VideoFaceComposer.target`), so the picture is not copied
/// again. Asked for each frame with its size and the output columns the scaler makes; answers a
/// texture that nobody else holds and where the frame's first pixel lands on it (the column may be
/// negative: only the made columns are written, and they must land inside the texture, as must
/// every row), or nil for the decoder's own texture. A frame scaled into the target comes out as
/// that texture (`VideoFrame.texture`).
public typealias FrameTarget = (_ frameWidth: Int, _ frameHeight: Int, _ columns: Range<Int>) -> (texture: Texture, x: Int, y: Int)?
