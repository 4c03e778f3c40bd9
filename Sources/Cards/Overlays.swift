import CCardLibs
import CarouselCore
import KioskConfig
import Raster

/// The look of the screen overlays. Built from `[theme]`; the fields `Theme` does not have yet
/// keep these defaults.
public struct OverlayStyle: Equatable, Sendable {
    public var showPageIndicator = true
    /// Hide the dots above this many items.
    public var pageIndicatorMaxItems = 30
    public var dotDiameter = 10.0
    public var dotSpacing = 10.0
    public var dotColor: ARGBColor = 0x66FF_FFFF
    public var currentDotColor: ARGBColor = 0xFFFF_FFFF
    /// Distance from the screen's bottom edge to the dots' centre line.
    public var dotsBottomMargin = 28.0

    public var showTitle = true
    public var titleFont = "DejaVu Sans"
    public var titleSize = 30.0
    public var titleColor: ARGBColor = 0xFFFF_FFFF
    /// A rounded plate behind the title (fully transparent: none).
    public var titleBackground: ARGBColor = 0x8C00_0000
    /// Distance from the screen's bottom edge to the title plate's bottom edge.
    public var titleBottomMargin = 56.0

    public init() {}

    /// From `[theme]`: visibility, the dots' count limit, the card font and title colour.
    public init(theme: Theme) {
        showPageIndicator = theme.showPageIndicator
        pageIndicatorMaxItems = theme.pageIndicatorMaxItems
        showTitle = theme.showTitle
        titleFont = theme.card.font
        titleColor = theme.card.titleColor
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
/// `pageIndicatorMaxItems`) and the focused item's title plate, for a screen size. Each is
/// drawn again only when what it shows changes (a dots texture is a few kB; a title plate
/// takes about a millisecond with pango).
public final class OverlayRenderer {
    public let style: OverlayStyle
    public let screenWidth: Int
    public let screenHeight: Int
    private var dots: (count: Int, current: Int, overlay: Overlay)?
    private var title: (text: String, overlay: Overlay?)?

    public init(style: OverlayStyle, screenWidth: Int, screenHeight: Int) {
        self.style = style
        self.screenWidth = max(1, screenWidth)
        self.screenHeight = max(1, screenHeight)
    }

    /// The dots for `count` items with `current` highlighted; nil when hidden.
    public func pageIndicator(count: Int, current: Int) -> Overlay? {
        guard style.showPageIndicator, count > 1, count <= style.pageIndicatorMaxItems else { return nil }
        if let d = dots, d.count == count, d.current == current { return d.overlay }
        let big = style.dotDiameter * 1.3
        var spacing = style.dotSpacing
        let maxWidth = Double(screenWidth) * 0.9
        var width = Double(count) * style.dotDiameter + Double(count - 1) * spacing + (big - style.dotDiameter)
        if width > maxWidth {
            spacing = max(2, (maxWidth - Double(count) * style.dotDiameter) / Double(count - 1))
            width = Double(count) * style.dotDiameter + Double(count - 1) * spacing + (big - style.dotDiameter)
        }
        let w = Int(width.rounded(.up)) + 2, h = Int(big.rounded(.up)) + 2
        let texture = Texture(width: w, height: h)
        let ctx = CairoContext(texture: texture)
        let cy = Double(h) / 2
        var x = 1 + big / 2
        for i in 0..<count {
            let isCurrent = i == current
            cairo_new_path(ctx.cr)
            cairo_arc(ctx.cr, x, cy, (isCurrent ? big : style.dotDiameter) / 2, 0, 2 * Double.pi)
            ctx.setColor(isCurrent ? style.currentDotColor : style.dotColor)
            cairo_fill(ctx.cr)
            x += style.dotDiameter + spacing
        }
        ctx.flush()
        let overlay = Overlay(texture: texture, x: (screenWidth - w) / 2,
                              y: screenHeight - Int(style.dotsBottomMargin.rounded()) - h / 2)
        dots = (count, current, overlay)
        return overlay
    }

    /// The title plate for the focused item (its title, one line with an ellipsis); nil when
    /// hidden or the item has no title.
    public func title(for item: ItemConfig?) -> Overlay? {
        guard style.showTitle, let item, !item.title.isEmpty else { return nil }
        if let t = title, t.text == item.title { return t.overlay }
        let overlay = drawTitle(item.title)
        title = (item.title, overlay)
        return overlay
    }

    private func drawTitle(_ text: String) -> Overlay? {
        let maxWidth = Double(screenWidth) * 0.8
        let pad = (style.titleSize * 0.45).rounded()
        // Measure on a scratch surface, then draw at the plate's size.
        let scratch = CairoContext(texture: Texture(width: 1, height: 1))
        let block = TextBlock(text: text, font: style.titleFont, size: style.titleSize, color: style.titleColor,
                              alignment: "center", lines: 1, bold: true)
        let measured = block.layout(on: scratch, width: maxWidth - 2 * pad).size
        let w = Int(Double(measured.width) + 2 * pad), h = Int(Double(measured.height) + pad)
        guard w > 0, h > 0 else { return nil }
        let texture = Texture(width: w, height: h)
        let ctx = CairoContext(texture: texture)
        if style.titleBackground >> 24 != 0 {
            ctx.roundedRect(x: 0, y: 0, width: Double(w), height: Double(h), radius: Double(h) / 2)
            ctx.setColor(style.titleBackground)
            cairo_fill(ctx.cr)
        }
        block.layout(on: ctx, width: Double(measured.width) + 1).draw(on: ctx, x: pad, y: pad / 2, shadow: false)
        ctx.flush()
        return Overlay(texture: texture, x: (screenWidth - w) / 2,
                       y: screenHeight - Int(style.titleBottomMargin.rounded()) - h)
    }
}
