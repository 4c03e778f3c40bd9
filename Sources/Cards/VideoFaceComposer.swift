import CCardLibs
import KioskConfig
import Raster

/// The faces of one video item's card at one size while its clip plays: each frame made the
/// card's face exactly as `CardFaceRenderer.videoFace` draws it (the same bytes), for less.
///
/// - What does not change from frame to frame is made once, on first use, and kept: the card's
///   background clipped to its rounded corners, and the title and subtitle laid out by pango.
/// - Each face is drawn into a texture from a `TexturePool` (one the player's queue and the
///   screen no longer hold), not a new one. A frame drawn `cover` at 1:1 on whole pixels (what
///   `VideoStill.decodeSize` gives on a card of even width) is copied row by row into the face,
///   and what lies over it — the rounded corners' edge over the background, the shadow, the
///   text and the border — is blended on from pixel layers recorded once from cairo's drawing
///   (`FaceOverlay`): no cairo per frame. Any other frame (or a card whose layers would not
///   give cairo's bytes) starts from a copy of the kept background and cairo draws it through
///   the clip, then the shadow, the text and the border, as the full redraw does.
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

    /// Whether frames placed on whole pixels get the recorded layers rather than cairo (tests).
    var blendsRecordedOverlay: Bool { overlay != nil }

    /// The card showing `frame` (decoded at `VideoStill.decodeSize`; opaque, as `VideoFrame`s
    /// are). The texture is the caller's until it lets it go; the composer then draws a later
    /// frame into it. A frame the decoder scaled into a face `target` gave is made that face in
    /// place (only the corners, shadow, text and border blended on) and returned.
    public func face(showing frame: Texture) -> Texture {
        let kept = keptParts()
        if pool.holds(frame), let overlay {
            // Scaled into one of the faces (`target`): the picture is in place.
            overlay.apply(to: frame)
            return frame
        }
        let (face, isNew) = pool.take()
        if isNew { face.buildMipLevelsOnDemand() }
        let W = Double(width), H = Double(height)
        do {
            if let placed = wholePixelCover(frameWidth: frame.width, frameHeight: frame.height), let overlay {
                // A copy of the picture, the corners, shadow, text and border blended on.
                for y in 0..<height {
                    (face.pixels + y * width).update(from: frame.pixels + (y - placed.y) * frame.width - placed.x, count: width)
                }
                overlay.apply(to: face)
            } else {
                face.pixels.update(from: kept.background.pixels, count: width * height)
                let ctx = CairoContext(texture: face)
                renderer.clipToCard(ctx, style: item.style, width: W, height: H)
                try renderer.finishCard(ctx, style: item.style, width: W, height: H) { ctx, W, H in
                    try renderer.drawContent(item, picture: .raster(frame), text: kept.text, on: ctx, width: W, height: H)
                }
            }
        } catch {
            return renderer.errorFace(item, width: width, height: height)
        }
        return face
    }

    /// A face for the next frame to be scaled straight into (a decoder's `FrameTarget`), when the
    /// frame is drawn `cover` at 1:1 on whole pixels, as tall as the card, the columns made are
    /// the card's and the card blends its recorded layers: `face(showing:)` then only blends the
    /// corners, shadow, text and border onto it. Nil otherwise: the frame is scaled into a texture
    /// of the decoder's and copied.
    public func target(frameWidth: Int, frameHeight: Int, columns: Range<Int>) -> (texture: Texture, x: Int, y: Int)? {
        guard let placed = wholePixelCover(frameWidth: frameWidth, frameHeight: frameHeight), placed.y == 0,
              columns == -placed.x ..< width - placed.x, overlay != nil else { return nil }
        let (face, isNew) = pool.take()
        if isNew { face.buildMipLevelsOnDemand() }
        return (face, placed.x, 0)
    }

    /// Where the frame's first pixel lands on the card when it is drawn `cover` at 1:1 and on
    /// whole pixels (what `VideoStill.decodeSize` gives on an even card); nil otherwise (the
    /// frame is drawn by cairo).
    private func wholePixelCover(frameWidth: Int, frameHeight: Int) -> (x: Int, y: Int)? {
        guard ImageFit(styleName: item.style.imageFit) == .cover else { return nil }
        let p = ImageFit.cover.place(imageWidth: Double(frameWidth), imageHeight: Double(frameHeight),
                                     boxWidth: Double(width), boxHeight: Double(height))
        guard p.scale == 1, p.x == p.x.rounded(), p.y == p.y.rounded() else { return nil }
        return (Int(p.x), Int(p.y))
    }

    /// What a frame placed on whole pixels at 1:1 gets over its picture — inside the card's clip
    /// an opaque picture drawn so is a copy of its pixels — recorded once (`FaceOverlay`): the
    /// corners' edge over the background, the shadow, the text and the border. Nil when its
    /// replay would not give cairo's bytes (the frame is then drawn with cairo).
    private lazy var overlay: FaceOverlay? = {
        let kept = keptParts()
        let W = Double(width), H = Double(height)
        return FaceOverlay(width: width, height: height, background: kept.background,
                           clip: { [renderer, item] in renderer.clipToCard($0, style: item.style, width: W, height: H) },
                           overPicture: { [renderer, item] ctx in
            renderer.clipToCard(ctx, style: item.style, width: W, height: H)
            renderer.finishCard(ctx, style: item.style, width: W, height: H) { ctx, W, H in
                renderer.drawOverCoverPicture(item, text: kept.text, on: ctx, width: W, height: H)
            }
        })
    }()

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
