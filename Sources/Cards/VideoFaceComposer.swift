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
///   the kept background only in the four corner squares, where cairo draws the frame through
///   the rounded clip; any other frame starts from a copy of the kept background and cairo draws
///   it through the clip. Then the shadow, the text and the border, as the full redraw does.
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

    /// The card showing `frame` (decoded at `VideoStill.decodeSize`; opaque, as `VideoFrame`s
    /// are). The texture is the caller's until it lets it go; the composer then draws a later
    /// frame into it.
    public func face(showing frame: Texture) -> Texture {
        let kept = keptParts()
        let (face, isNew) = pool.take()
        if isNew { face.buildMipLevelsOnDemand() }
        let W = Double(width), H = Double(height)
        do {
            if let placed = wholePixelCover(frame) {
                try drawCopyingPicture(frame, at: placed, into: face, kept: kept)
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

    /// Where the frame's first pixel lands on the card when it is drawn `cover` at 1:1 and on
    /// whole pixels (what `VideoStill.decodeSize` gives on an even card), with corners small
    /// enough to leave a middle that is all picture; nil otherwise (the frame is drawn by cairo).
    private func wholePixelCover(_ frame: Texture) -> (x: Int, y: Int, corner: Int)? {
        guard ImageFit(styleName: item.style.imageFit) == .cover else { return nil }
        let p = ImageFit.cover.place(imageWidth: Double(frame.width), imageHeight: Double(frame.height),
                                     boxWidth: Double(width), boxHeight: Double(height))
        guard p.scale == 1, p.x == p.x.rounded(), p.y == p.y.rounded() else { return nil }
        // The rounded corners' arcs stay inside a square of the radius (the one pixel more
        // covers cairo's approximation of the arc by curves).
        let radius = max(0, min(item.style.cornerRadius, min(Double(width), Double(height)) / 2))
        let corner = radius > 0 ? Int(radius.rounded(.up)) + 1 : 0
        guard 2 * corner < width, 2 * corner < height else { return nil }
        return (Int(p.x), Int(p.y), corner)
    }

    /// The face as `drawContent` draws it, for a frame placed on whole pixels at 1:1: inside the
    /// card's clip an opaque picture drawn so is a copy of its pixels, so they are copied row by
    /// row, and cairo draws the picture only in the four corner squares (over the kept background,
    /// through the rounded clip: the antialiased edge), then the shadow, text and border as the
    /// full redraw does.
    private func drawCopyingPicture(_ frame: Texture, at placed: (x: Int, y: Int, corner: Int), into face: Texture,
                                    kept: (background: Texture, text: TextStack)) throws {
        let c = placed.corner
        for y in 0..<height {
            let row = face.pixels + y * width
            let source = frame.pixels + (y - placed.y) * frame.width - placed.x
            if y < c || y >= height - c {
                let background = kept.background.pixels + y * width
                row.update(from: background, count: c)
                (row + c).update(from: source + c, count: width - 2 * c)
                (row + width - c).update(from: background + width - c, count: c)
            } else {
                row.update(from: source, count: width)
            }
        }
        let ctx = CairoContext(texture: face)
        let W = Double(width), H = Double(height)
        if c > 0 {
            let side = Double(c)
            renderer.clipToCard(ctx, style: item.style, width: W, height: H)
            cairo_new_path(ctx.cr)
            for (x, y) in [(0, 0), (W - side, 0), (0, H - side), (W - side, H - side)] {
                cairo_rectangle(ctx.cr, x, y, side, side)
            }
            cairo_clip(ctx.cr)
            try ImageSource.raster(frame).draw(on: ctx, fit: .cover, x: 0, y: 0, width: W, height: H)
            cairo_reset_clip(ctx.cr)
        }
        renderer.clipToCard(ctx, style: item.style, width: W, height: H)
        try renderer.finishCard(ctx, style: item.style, width: W, height: H) { ctx, W, H in
            renderer.drawOverCoverPicture(item, text: kept.text, on: ctx, width: W, height: H)
        }
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
