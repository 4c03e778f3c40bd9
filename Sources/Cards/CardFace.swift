import CarouselCore
import Raster

/// What to draw for one item this frame: its texture at `opacity`, over `underlay` (the
/// loading face, or the previous face after a change) while it fades in.
public struct CardFace {
    /// Drawn first, fully opaque; nil when nothing is fading.
    public let underlay: Texture?
    public let texture: Texture
    /// 0…1: how far the fade-in is (1 when done).
    public let opacity: Double
    /// False while only the loading face is available.
    public let isReady: Bool

    public init(texture: Texture, opacity: Double = 1, underlay: Texture? = nil, isReady: Bool = true) {
        self.texture = texture
        self.opacity = opacity
        self.underlay = underlay
        self.isReady = isReady
    }

    /// The quads the compositor draws for this face at a pose (corners and the layout's alpha).
    public func quads(corners: [Point2], alpha: Double) -> [Quad] {
        var q: [Quad] = []
        if let underlay { q.append(Quad(texture: underlay, corners: corners, alpha: alpha)) }
        if opacity > 0 { q.append(Quad(texture: texture, corners: corners, alpha: alpha * opacity)) }
        return q
    }
}
