import KioskConfig
import Raster

/// The faces of one video item's card at one size while its clip plays: each frame made the
/// card's face exactly as `CardFaceRenderer.videoFace` draws it (the same bytes), for less.
///
/// - What does not change from frame to frame is made once, on first use, and kept: the card's
///   background clipped to its rounded corners, and the title and subtitle laid out by pango.
/// - Each face is drawn into a texture from a `TexturePool` (one the player's queue and the
///   screen no longer hold), not a new one: it starts as a copy of the kept background, then
///   cairo draws the frame through the corner clip (one blit when the frame is decoded at the
///   size it is drawn), the shadow, the text and the border, as the full redraw does.
/// - Mip levels are made on demand (`Texture.buildMipLevelsOnDemand()`): only when the face is
///   drawn minified (the card a stopped clip leaves while the carousel moves), not per frame.
///
/// Used by one thread at a time: a clip's player thread (pango's font map is per thread, so the
/// kept layouts are made on the thread that first asks for a face).
public final class VideoFaceComposer {
    public let item: ItemConfig
    public let width: Int, height: Int
    private let renderer: CardFaceRenderer
    private let pool: TexturePool
    /// The background clipped to the card and the laid-out text, made by the first `face`.
    private var kept: (background: Texture, text: TextStack)?

    /// Faces of `item`'s card at `width × height`; `capacity` faces are kept for reuse (the
    /// player's queue depth, the face shown and the one being drawn).
    public init(item: ItemConfig, width: Int, height: Int, capacity: Int, renderer: CardFaceRenderer = CardFaceRenderer()) {
        self.item = item
        self.width = max(1, width)
        self.height = max(1, height)
        self.renderer = renderer
        pool = TexturePool(width: self.width, height: self.height, capacity: capacity)
    }

    /// Face textures made so far: stays put once the clip plays and frames are let go.
    public var allocations: Int { pool.allocations }

    /// The card showing `frame` (decoded at `VideoStill.decodeSize`). The texture is the
    /// caller's until it lets it go; the composer then draws a later frame into it.
    public func face(showing frame: Texture) -> Texture {
        let kept = keptParts()
        let (face, isNew) = pool.take()
        if isNew { face.buildMipLevelsOnDemand() }
        face.pixels.update(from: kept.background.pixels, count: width * height)
        let ctx = CairoContext(texture: face)
        let W = Double(width), H = Double(height)
        renderer.clipToCard(ctx, style: item.style, width: W, height: H)
        do {
            try renderer.finishCard(ctx, style: item.style, width: W, height: H) { ctx, W, H in
                try renderer.drawContent(item, picture: .raster(frame), text: kept.text, on: ctx, width: W, height: H)
            }
        } catch {
            return renderer.errorFace(item, width: width, height: height)
        }
        return face
    }

    private func keptParts() -> (background: Texture, text: TextStack) {
        if let kept { return kept }
        let background = Texture(width: width, height: height)
        let ctx = CairoContext(texture: background)
        let W = Double(width), H = Double(height)
        renderer.paintBackground(ctx, style: item.style, width: W, height: H)
        ctx.flush()
        let made = (background, renderer.textStack(item, on: ctx, width: W, height: H))
        kept = made
        return made
    }
}
