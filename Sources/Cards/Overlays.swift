import CCardLibs
import CarouselCore
import KioskConfig
import Raster

/// What the overlays show and how: `[theme]`'s switches, `[theme.page_indicator]` and
/// `[theme.title_overlay]`.
public struct OverlayStyle: Equatable, Sendable {
    public var showPageIndicator = true
    /// Hide the dots above this many items.
    public var pageIndicatorMaxItems = 30
    public var pageIndicator = PageIndicatorStyle()
    public var showTitle = true
    public var titleOverlay = TitleOverlayStyle()
    /// The on-screen dial's ring: drawn when a dial is configured and `showDial`.
    public var showDial = true
    public var dialRing = DialRingStyle()

    public init() {}

    public init(theme: Theme) {
        showPageIndicator = theme.showPageIndicator
        pageIndicatorMaxItems = theme.pageIndicatorMaxItems
        pageIndicator = theme.pageIndicator
        showTitle = theme.showTitle
        titleOverlay = theme.titleOverlay
        showDial = theme.showDial
        dialRing = theme.dialRing
    }
}

/// A drawable overlay: a texture placed unscaled at (`x`, `y`) on the screen.
public struct Overlay {
    public let texture: Texture
    public let x: Int
    public let y: Int

    /// The screen-aligned quad the compositor draws (a 1:1 blit).
    public var quad: Quad {
        let x0 = Double(x), y0 = Double(y), x1 = Double(x + texture.width), y1 = Double(y + texture.height)
        return Quad(texture: texture, corners: [Point2(x0, y0), Point2(x1, y0), Point2(x1, y1), Point2(x0, y1)])
    }
}

/// Draws the page indicator (one dot per item, the current one bright and larger; hidden past
/// `pageIndicatorMaxItems`) and the focused item's title, for a screen size. Each is drawn
/// again only when what it shows changes (a dots texture is a few kB; a title takes about a
/// millisecond with pango).
public final class OverlayRenderer {
    public let style: OverlayStyle
    public let screenWidth: Int
    public let screenHeight: Int
    private var dots: (count: Int, current: Int, overlay: Overlay)?
    private var title: (text: String, overlay: Overlay?)?
    private var ring: (dial: DialOptions, overlay: Overlay?)?
    private var messageCache: (card: MessageCard, style: MessageCardRenderer.Style, overlay: Overlay)?
    private var badge: (code: String, overlay: Overlay)?
    /// The first frame's title and badge, drawn on another thread (`OverlaysDrawnAhead`): taken
    /// from there when drawn, left out while they are still coming. Nil: drawn here. Ignored
    /// when it was drawn for another style or size.
    public var drawnAhead: OverlaysDrawnAhead?
    /// Set when a title or badge was left out because `drawnAhead` is still drawing it; the
    /// caller clears it before a frame's overlays are asked for.
    public var leftOutForDrawnAhead = false

    public init(style: OverlayStyle, screenWidth: Int, screenHeight: Int) {
        self.style = style
        self.screenWidth = max(1, screenWidth)
        self.screenHeight = max(1, screenHeight)
    }

    /// The dots for `count` items with `current` highlighted; nil when hidden.
    public func pageIndicator(count: Int, current: Int) -> Overlay? {
        guard style.showPageIndicator, count > 1, count <= style.pageIndicatorMaxItems else { return nil }
        if let d = dots, d.count == count, d.current == current { return d.overlay }
        let s = style.pageIndicator
        let dot = max(1, s.dotSize), big = dot * 1.3
        var spacing = max(0, s.spacing)
        let maxWidth = Double(screenWidth) * 0.9
        var width = Double(count) * dot + Double(count - 1) * spacing + (big - dot)
        if width > maxWidth {
            spacing = max(1, (maxWidth - Double(count) * dot) / Double(count - 1))
            width = Double(count) * dot + Double(count - 1) * spacing + (big - dot)
        }
        let w = Int(width.rounded(.up)) + 2, h = Int(big.rounded(.up)) + 2
        // On a plate (high contrast) the row gets a margin of half a dot all round.
        let inset = s.plate >> 24 == 0 ? 0 : Int((dot / 2).rounded(.up))
        // Filled without cairo (`RoundedRectCoverage`): the first frame shows the dots, and
        // needs no drawing library then (docs/start-up.md, stop 68).
        let texture = Texture(width: w + 2 * inset, height: h + 2 * inset)
        if inset > 0 {
            RoundedRectCoverage(left: 0, top: 0, right: Double(texture.width), bottom: Double(texture.height),
                                radius: Double(texture.height) / 2).fill(texture, color: s.plate)
        }
        let cy = Double(h) / 2 + Double(inset)
        var x = 1 + big / 2 + Double(inset)
        for i in 0..<count {
            let r = (i == current ? big : dot) / 2
            RoundedRectCoverage(left: x - r, top: cy - r, right: x + r, bottom: cy + r, radius: r)
                .fill(texture, color: i == current ? s.currentColor : s.color)
            x += dot + spacing
        }
        // The margin is from the screen edge to the dots' centre line.
        let centre = s.position == .bottom ? Double(screenHeight) - s.margin : s.margin
        let overlay = Overlay(texture: texture, x: (screenWidth - texture.width) / 2,
                              y: Int((centre - Double(texture.height) / 2).rounded()))
        dots = (count, current, overlay)
        return overlay
    }

    /// The ring of the on-screen dial (`[input.dial]`): the band between the inner and outer
    /// circles, filled faintly and outlined, so people see where turning works; nil when no dial
    /// is configured or `show_dial` is off. Drawn once per dial geometry.
    public func dialRing(_ dial: DialOptions?) -> Overlay? {
        guard style.showDial, let dial, dial.outerRadius > dial.innerRadius, dial.outerRadius > 0,
              dial.outerRadius.isFinite, dial.center.x.isFinite, dial.center.y.isFinite else { return nil }
        if let r = ring, r.dial == dial { return r.overlay }
        let s = style.dialRing
        let line = max(0, s.width)
        let outer = min(dial.outerRadius, Double(max(screenWidth, screenHeight)))
        let inner = max(0, min(dial.innerRadius, outer))
        let size = Int((2 * outer + line + 2).rounded(.up))
        let texture = Texture(width: size, height: size)
        let ctx = CairoContext(texture: texture)
        let c = Double(size) / 2
        // The band: outer circle minus inner circle (even-odd fill).
        cairo_new_path(ctx.cr)
        cairo_arc(ctx.cr, c, c, outer, 0, 2 * Double.pi)
        cairo_new_sub_path(ctx.cr)
        cairo_arc(ctx.cr, c, c, inner, 0, 2 * Double.pi)
        cairo_set_fill_rule(ctx.cr, CAIRO_FILL_RULE_EVEN_ODD)
        ctx.setColor(s.fill)
        cairo_fill(ctx.cr)
        if line > 0 {
            cairo_set_line_width(ctx.cr, line)
            ctx.setColor(s.color)
            for radius in [outer, inner] where radius > 0 {
                cairo_new_path(ctx.cr)
                cairo_arc(ctx.cr, c, c, radius, 0, 2 * Double.pi)
                cairo_stroke(ctx.cr)
            }
        }
        ctx.flush()
        let overlay = Overlay(texture: texture, x: Int((dial.center.x - c).rounded()), y: Int((dial.center.y - c).rounded()))
        ring = (dial, overlay)
        return overlay
    }

    /// The shown language's badge (`LanguageBadge`): drawn again only when the language changes;
    /// nil only while another thread is drawing it (`drawnAhead`).
    public func languageBadge(_ code: String) -> Overlay? {
        if let b = badge, b.code == code { return b.overlay }
        switch ahead?.badge(code) ?? .notHere {
        case .drawn(let overlay?):
            badge = (code, overlay)
            return overlay
        case .coming:
            leftOutForDrawnAhead = true
            return nil
        case .drawn(nil), .notHere: break
        }
        let overlay = LanguageBadge.render(code: code, screenWidth: screenWidth, screenHeight: screenHeight, style: style.titleOverlay)
        badge = (code, overlay)
        return overlay
    }

    /// A message over the whole screen (`MessageCard`): drawn again only when it changes.
    public func message(_ card: MessageCard, style: MessageCardRenderer.Style) -> Overlay {
        if let m = messageCache, m.card == card, m.style == style { return m.overlay }
        let overlay = Overlay(texture: MessageCardRenderer.render(card, width: screenWidth, height: screenHeight, style: style),
                              x: 0, y: 0)
        messageCache = (card, style, overlay)
        return overlay
    }

    /// `drawnAhead` when it serves this renderer.
    private var ahead: OverlaysDrawnAhead? {
        guard let drawnAhead, drawnAhead.serves(style: style, screenWidth: screenWidth, screenHeight: screenHeight) else { return nil }
        return drawnAhead
    }

    /// The focused item's title (one line with an ellipsis, `lines` in large text; on a rounded
    /// plate when the style has a background, with a soft shadow when it has none); nil when
    /// hidden or untitled, or while another thread is drawing it (`drawnAhead`).
    public func title(for item: ItemConfig?) -> Overlay? {
        guard style.showTitle, let item, !item.title.isEmpty else { return nil }
        if let t = title, t.text == item.title { return t.overlay }
        switch ahead?.title(item.title) ?? .notHere {
        case .drawn(let overlay):
            title = (item.title, overlay)
            return overlay
        case .coming:
            leftOutForDrawnAhead = true
            return nil
        case .notHere: break
        }
        let overlay = drawTitle(item.title)
        title = (item.title, overlay)
        return overlay
    }

    private func drawTitle(_ text: String) -> Overlay? {
        let s = style.titleOverlay
        let plate = s.background >> 24 != 0
        let maxWidth = Double(screenWidth) * 0.8
        let pad = (s.size * 0.45).rounded()
        let block = TextBlock(text: text, font: s.font, size: s.size, color: s.color, alignment: "center", lines: max(1, s.lines),
                              bold: true)
        // Measure on a scratch surface, then draw at the overlay's size.
        let scratch = CairoContext(texture: Texture(width: 1, height: 1))
        let measured = block.layout(on: scratch, width: maxWidth - 2 * pad).size
        let w = Int(Double(measured.width) + 2 * pad), h = Int(Double(measured.height) + pad)
        guard measured.width > 0, w > 0, h > 0 else { return nil }
        let texture = Texture(width: w, height: h)
        let ctx = CairoContext(texture: texture)
        if plate {
            // A pill round one line; corners of the same roundness round more lines.
            let radius = s.lines <= 1 ? Double(h) / 2 : min(Double(h), s.size + pad) / 2
            ctx.roundedRect(x: 0, y: 0, width: Double(w), height: Double(h), radius: radius)
            ctx.setColor(s.background)
            cairo_fill(ctx.cr)
        }
        block.layout(on: ctx, width: Double(measured.width) + 1).draw(on: ctx, x: pad, y: pad / 2, shadow: !plate)
        ctx.flush()
        // The margin is from the screen edge to the overlay's near edge.
        let y = s.position == .bottom ? screenHeight - Int(s.margin.rounded()) - h : Int(s.margin.rounded())
        return Overlay(texture: texture, x: (screenWidth - w) / 2, y: y)
    }
}
