import CCardLibs
import Foundation
import KioskConfig
import Logging
import Raster

/// The real card face, drawn with cairo, pango and librsvg into a texture of the size the card
/// is shown at: background (flat or vertical gradient), picture fitted `cover` or `contain`,
/// the conveyor-belt shadow gradient, title and subtitle shaped by pango, border, rounded
/// corners. Anything wrong with the item (a broken image, a font that is not installed) gives
/// the "!" face and a `CardFailure` instead; a picture that is not on disk (deleted) gives the
/// loading face with the item's title (`missingFace`) and a `CardFailure` marked `missing`.
///
/// Stateless and safe to use from several threads at once (pango's default font map is per
/// thread; fontconfig is thread-safe; cairo's shared font caches are used only under
/// `FontLock`).
public struct CardFaceRenderer: CardRenderer {
    public var limits: ImageLimits
    /// Where `render(_:width:height:)` reports failures (the pipeline logs them itself).
    public var logger: Logger?

    public init(limits: ImageLimits = ImageLimits(), logger: Logger? = nil) {
        self.limits = limits
        self.logger = logger
    }

    /// The face, or the "!" face when something is wrong (failure logged to `logger`).
    public func render(_ item: ItemConfig, width: Int, height: Int) -> Texture {
        let result = renderFace(item, width: width, height: height)
        if let failure = result.failure {
            logger?.warning("card cannot show \(failure.file): \(failure.reason)", metadata: ["item": "\(item.id)"])
        }
        return result.texture
    }

    /// The face and, when the "!" face (or the missing file's face) was drawn instead, why.
    public func renderFace(_ item: ItemConfig, width: Int, height: Int) -> (texture: Texture, failure: CardFailure?) {
        let w = max(1, width), h = max(1, height)
        var failure: CardFailure
        do {
            return (try drawFace(item, width: w, height: h), nil)
        } catch let f as CardFailure {
            failure = f
        } catch {
            failure = CardFailure(file: item.image ?? item.video ?? "item '\(item.id)'", reason: "\(error)")
        }
        // A clip or poster that is gone fails in its decoder: look at the disk.
        if !failure.missing, [item.image, item.video, item.poster].contains(failure.file),
           !FileManager.default.fileExists(atPath: failure.file) {
            failure.missing = true
        }
        return (failure.missing ? missingFace(item, width: w, height: h) : errorFace(item, width: w, height: h), failure)
    }

    func drawFace(_ item: ItemConfig, width w: Int, height h: Int) throws -> Texture {
        let style = item.style
        if let why = FontCheck.problem(font: style.font) {
            throw CardFailure(file: "item '\(item.id)'", reason: "font \"\(style.font)\" \(why)")
        }
        let fit = ImageFit(styleName: style.imageFit)
        let image: ImageSource?
        if let video = item.video {
            // A video item's still: its poster picture, else the clip's first frame.
            if let poster = item.poster {
                image = try ImageSource.load(path: poster, fit: fit, boxWidth: w, boxHeight: h, limits: limits)
            } else {
                image = .raster(try VideoStill.poster(path: video, fit: fit, boxWidth: w, boxHeight: h, limits: limits))
            }
        } else {
            image = try item.image.map {
                try ImageSource.load(path: $0, fit: fit, boxWidth: w, boxHeight: h, limits: limits)
            }
        }
        return try compose(item, picture: image, width: w, height: h)
    }

    /// The face of a video item showing one frame of its clip (decoded at `VideoStill.decodeSize`)
    /// instead of its poster: the same card — background, fitted picture, shadow, title, border.
    /// Runs on a clip's decoder thread, once per frame shown.
    public func videoFace(_ item: ItemConfig, frame: Texture, width: Int, height: Int) -> Texture {
        let w = max(1, width), h = max(1, height)
        return (try? compose(item, picture: .raster(frame), width: w, height: h)) ?? errorFace(item, width: w, height: h)
    }

    /// The card with `picture` placed as the style says.
    func compose(_ item: ItemConfig, picture image: ImageSource?, width w: Int, height h: Int) throws -> Texture {
        try card(style: item.style, width: w, height: h) { ctx, W, H in
            try drawContent(item, picture: image, text: textStack(item, on: ctx, width: W, height: H), on: ctx, width: W, height: H)
        }
    }

    /// The item's title and subtitle laid out for a `W × H` card in its style's font.
    func textStack(_ item: ItemConfig, on ctx: CairoContext, width W: Double, height H: Double) -> TextStack {
        TextStack(item, on: ctx, font: item.style.font, width: W - 2 * CardFaceRenderer.padding(item.style, width: W, height: H))
    }

    /// What lies inside the card's clip: the picture placed as the style says, the shadow and
    /// the text (`text`, laid out by `textStack`).
    func drawContent(_ item: ItemConfig, picture image: ImageSource?, text: TextStack, on ctx: CairoContext,
                     width W: Double, height H: Double) throws {
        let style = item.style
        let fit = ImageFit(styleName: style.imageFit)
        let pad = CardFaceRenderer.padding(style, width: W, height: H)
        switch (image, fit) {
        case (nil, _):
            text.draw(on: ctx, x: pad, y: max(pad, ((H - text.height) / 2).rounded()), shadow: false)
        case (let image?, .cover):
            // Edge to edge; the text sits on the picture's lower part, over the shadow if any.
            try image.draw(on: ctx, fit: .cover, x: 0, y: 0, width: W, height: H)
            drawOverCoverPicture(item, text: text, on: ctx, width: W, height: H)
        case (let image?, .contain):
            // The whole picture inside the padding, above the text (logos and icons).
            let textSpace = text.isEmpty ? 0 : text.height + pad / 2
            let boxH = max(1, H - 2 * pad - textSpace)
            try image.draw(on: ctx, fit: .contain, x: pad, y: pad, width: W - 2 * pad, height: boxH)
            if style.shadow { paintShadow(ctx, fraction: style.shadowHeight, width: W, height: H) }
            drawBottomText(text, style: style, on: ctx, pad: pad, width: W, height: H, shadow: style.shadow)
        }
    }

    /// What `drawContent` draws over a picture fitted `cover`: the shadow, if any, and the text.
    func drawOverCoverPicture(_ item: ItemConfig, text: TextStack, on ctx: CairoContext, width W: Double, height H: Double) {
        let style = item.style
        let pad = CardFaceRenderer.padding(style, width: W, height: H)
        if style.shadow { paintShadow(ctx, fraction: style.shadowHeight, width: W, height: H) }
        drawBottomText(text, style: style, on: ctx, pad: pad, width: W, height: H, shadow: true)
    }

    /// The text at the card's bottom, where it may sit on a picture: on the style's opaque
    /// `textPlate` band when it has one (high contrast), else with the soft shadow if `shadow`.
    func drawBottomText(_ text: TextStack, style: CardStyle, on ctx: CairoContext, pad: Double,
                        width W: Double, height H: Double, shadow: Bool) {
        let y = max(pad, H - pad - text.height)
        if let plate = style.textPlate, !text.isEmpty {
            let top = (y - pad / 2).rounded(.down)
            cairo_rectangle(ctx.cr, 0, top, W, H - top)
            ctx.setColor(plate)
            cairo_fill(ctx.cr)
        }
        text.draw(on: ctx, x: pad, y: y, shadow: shadow && style.textPlate == nil)
    }

    // MARK: Faces shown instead of the real one

    /// The face shown while the real one is being drawn: the card's background, corners and
    /// border — the real face then fades in over it. Drawn without cairo (`LoadingFaceFill`):
    /// the first frame is made of these, and needs no drawing library then.
    public func loadingFace(style: CardStyle, width: Int, height: Int) -> Texture {
        LoadingFaceFill.face(style: style, width: width, height: height)
    }

    /// iCarousel's placeholder: the empty slot shown where a carousel with too few items has
    /// room for more — the card's shape, faint, with no content.
    public func placeholderFace(style: CardStyle, width: Int, height: Int) -> Texture {
        var faint = style
        faint.borderWidth = 0
        return card(style: faint, width: width, height: height, backgroundAlpha: 0.3, inside: { _, _, _ in }) { ctx, W, H in
            let line = max(1, (min(W, H) / 120).rounded())
            ctx.roundedRect(x: line / 2, y: line / 2, width: W - line, height: H - line, radius: style.cornerRadius - line / 2)
            ctx.setColor(style.borderWidth > 0 ? style.borderColor : style.titleColor, alpha: 0.25)
            cairo_set_line_width(ctx.cr, line)
            var dashes = [line * 6, line * 4]
            cairo_set_dash(ctx.cr, &dashes, 2, 0)
            cairo_stroke(ctx.cr)
        }
    }

    /// The face of an item whose picture is not on disk (deleted, or its folder gone): the
    /// loading face with the item's title and subtitle, as a card without a picture — no badge,
    /// nothing meant for a developer (the journal says which file, once).
    public func missingFace(_ item: ItemConfig, width: Int, height: Int) -> Texture {
        titleFace(item, width: width, height: height, badge: false)
    }

    /// The face of an item that cannot be shown: its background and title (in the default
    /// font), with a small amber "!" badge in the top-right corner.
    public func errorFace(_ item: ItemConfig, width: Int, height: Int) -> Texture {
        titleFace(item, width: width, height: height, badge: true)
    }

    /// The card's background with its title and subtitle centred (in the default font when the
    /// style's is not installed), and the "!" badge when `badge`.
    func titleFace(_ item: ItemConfig, width: Int, height: Int, badge: Bool) -> Texture {
        let style = item.style
        return card(style: style, width: width, height: height) { ctx, W, H in
            let font = FontCatalog.missingFamilies(in: style.font).isEmpty ? style.font : "Sans"
            let pad = CardFaceRenderer.padding(style, width: W, height: H)
            let text = TextStack(item, on: ctx, font: font, width: W - 2 * pad)
            text.draw(on: ctx, x: pad, y: max(pad, ((H - text.height) / 2).rounded()), shadow: false)
            if badge { drawBadge(ctx, width: W, height: H) }
        }
    }

    /// A card-shaped texture: background (times `backgroundAlpha`), then `inside` clipped to the
    /// rounded corners, then the border, then `over` unclipped.
    func card(style: CardStyle, width: Int, height: Int, backgroundAlpha: Double = 1,
              inside: (CairoContext, Double, Double) throws -> Void,
              over: (CairoContext, Double, Double) -> Void = { _, _, _ in }) rethrows -> Texture {
        let texture = Texture(width: max(1, width), height: max(1, height))
        let ctx = CairoContext(texture: texture)
        let W = Double(texture.width), H = Double(texture.height)
        paintBackground(ctx, style: style, width: W, height: H, alpha: backgroundAlpha)
        try finishCard(ctx, style: style, width: W, height: H, inside: inside, over: over)
        return texture
    }

    /// The card's background (times `alpha`) clipped to its rounded corners; the clip stays set
    /// for what `finishCard` draws inside.
    /// `ctx`'s texture must be new (every pixel transparent) and, for the fast path, exactly
    /// `W` × `H`: the gradient is then written row by row (`VerticalGradientFill`) and the corners
    /// cut as the loading face's are (`LoadingFaceFill.cutCorners`: every face's corners the
    /// same pixels, so a face fades in over its loading face without a seam), instead of cairo's
    /// gradient under the clip.
    func paintBackground(_ ctx: CairoContext, style: CardStyle, width W: Double, height H: Double, alpha: Double = 1) {
        guard Double(ctx.texture.width) == W, Double(ctx.texture.height) == H else {
            clipToCard(ctx, style: style, width: W, height: H)
            ctx.paintVertical(top: style.background, bottom: style.backgroundBottom, y0: 0, y1: H, alpha: alpha)
            return
        }
        VerticalGradientFill.fill(ctx.texture, top: style.background, bottom: style.backgroundBottom, alpha: alpha)
        LoadingFaceFill.cutCorners(ctx.texture, card: RoundedRectCoverage(left: 0, top: 0, right: W, bottom: H, radius: style.cornerRadius))
        ctx.markDirty()
        clipToCard(ctx, style: style, width: W, height: H)
    }

    /// After `paintBackground` (or a copy of its result, clipped again with `clipToCard`):
    /// `inside` within the clip, then the border, then `over` unclipped; flushed to the texture.
    func finishCard(_ ctx: CairoContext, style: CardStyle, width W: Double, height H: Double,
                    inside: (CairoContext, Double, Double) throws -> Void,
                    over: (CairoContext, Double, Double) -> Void = { _, _, _ in }) rethrows {
        try inside(ctx, W, H)
        cairo_reset_clip(ctx.cr)
        strokeBorder(ctx, style: style, width: W, height: H)
        over(ctx, W, H)
        ctx.flush()
    }

    // MARK: Pieces

    /// Padding between the card's edge and its text when the style sets none: 6 % of the
    /// card's smaller side, at least 4 pixels.
    static func padding(width: Double, height: Double) -> Double { max(4, (min(width, height) * 0.06).rounded()) }

    /// The style's padding plus its border.
    static func padding(_ style: CardStyle, width: Double, height: Double) -> Double {
        (style.padding ?? padding(width: width, height: height)) + style.borderWidth
    }

    /// The shadow's darkest alpha, at the card's bottom edge.
    static let shadowAlpha = 0.9

    func clipToCard(_ ctx: CairoContext, style: CardStyle, width: Double, height: Double) {
        ctx.roundedRect(x: 0, y: 0, width: width, height: height, radius: style.cornerRadius)
        cairo_clip(ctx.cr)
    }

    /// The ShinobiEssentials conveyor-belt shadow: transparent → 90 % black across the lower
    /// `fraction` of the card.
    func paintShadow(_ ctx: CairoContext, fraction: Double, width: Double, height: Double) {
        let y0 = height * (1 - max(0, min(1, fraction)))
        let g = cairo_pattern_create_linear(0, y0, 0, height)
        cairo_pattern_add_color_stop_rgba(g, 0, 0, 0, 0, 0)
        cairo_pattern_add_color_stop_rgba(g, 1, 0, 0, 0, CardFaceRenderer.shadowAlpha)
        cairo_set_source(ctx.cr, g)
        cairo_rectangle(ctx.cr, 0, y0, width, height - y0)
        cairo_fill(ctx.cr)
        cairo_pattern_destroy(g)
    }

    func strokeBorder(_ ctx: CairoContext, style: CardStyle, width: Double, height: Double) {
        guard style.borderWidth > 0 else { return }
        let bw = min(style.borderWidth, min(width, height) / 2)
        ctx.roundedRect(x: bw / 2, y: bw / 2, width: width - bw, height: height - bw,
                        radius: max(0, style.cornerRadius - bw / 2))
        ctx.setColor(style.borderColor)
        cairo_set_line_width(ctx.cr, bw)
        cairo_stroke(ctx.cr)
    }

    /// A small amber disc with a white "!" in the card's top-right corner.
    func drawBadge(_ ctx: CairoContext, width: Double, height: Double) {
        let r = max(7, (min(width, height) * 0.075).rounded())
        let pad = CardFaceRenderer.padding(width: width, height: height)
        CardFaceRenderer.drawBadge(ctx, cx: width - pad - r, cy: pad + r, r: r)
    }

    /// The amber disc of radius `r` with a white "!", drawn as shapes (no font needed): the
    /// error face's badge and the problem card's.
    static func drawBadge(_ ctx: CairoContext, cx: Double, cy: Double, r: Double) {
        let cr = ctx.cr
        cairo_new_path(cr)
        cairo_arc(cr, cx, cy, r, 0, 2 * Double.pi)
        ctx.setColor(0xFFE8_A33D)
        cairo_fill(cr)
        ctx.setColor(0xFFFF_FFFF)
        let bar = r * 0.26
        ctx.roundedRect(x: cx - bar / 2, y: cy - r * 0.6, width: bar, height: r * 0.75, radius: bar / 2)
        cairo_fill(cr)
        cairo_new_path(cr)
        cairo_arc(cr, cx, cy + r * 0.45, bar * 0.62, 0, 2 * Double.pi)
        cairo_fill(cr)
    }
}
