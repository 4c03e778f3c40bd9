import CarouselCore

/// One textured card to draw: the texture's rectangle mapped onto four screen corners
/// (top-left, top-right, bottom-right, bottom-left; pixel-edge coordinates), at an opacity.
public struct Quad {
    public var texture: Texture
    public var corners: [Point2]
    /// 0…1, multiplies the texture's premultiplied pixels.
    public var alpha: Double
    /// When true, the quad is skipped if its corners wind the other way round on screen (the
    /// card shows its back, as on the far side of a rotary ring). When false, a mirrored quad is
    /// drawn mirrored.
    public var cullsBackFace: Bool
    public init(texture: Texture, corners: [Point2], alpha: Double = 1, cullsBackFace: Bool = false) {
        self.texture = texture; self.corners = corners; self.alpha = alpha; self.cullsBackFace = cullsBackFace
    }

    /// The pixel rectangle the quad can touch (its corners' bounding box, grown by one pixel for
    /// anti-aliased edges), or empty for a degenerate quad.
    public var bounds: PixelRect { PixelRect.covering(corners, margin: 1) }
}
