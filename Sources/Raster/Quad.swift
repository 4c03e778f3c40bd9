import CarouselCore

/// One textured card to draw: the texture's rectangle mapped onto four screen corners
/// (top-left, top-right, bottom-right, bottom-left; pixel-edge coordinates), at an opacity.
public struct Quad {
    public var texture: Texture
    public var corners: [Point2]
    /// 0…1, multiplies the texture's premultiplied pixels.
    public var alpha: Double
    public init(texture: Texture, corners: [Point2], alpha: Double = 1) {
        self.texture = texture; self.corners = corners; self.alpha = alpha
    }

    /// The pixel rectangle the quad can touch (its corners' bounding box, grown by one pixel for
    /// anti-aliased edges), or empty for a degenerate quad.
    public var bounds: PixelRect { PixelRect.covering(corners, margin: 1) }
}
