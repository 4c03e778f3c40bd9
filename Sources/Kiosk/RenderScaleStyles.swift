import CarouselCore
import KioskConfig

/// What is rasterized at `[display] render_scale`: the layout stays in screen pixels (the
/// engine, gestures and touch positions never see the scale), while card faces, the title, the
/// page dots and the dial ring are drawn for the scaled size — every length in their styles
/// multiplied by the scale — so nothing is drawn at full size and then shrunk.
extension CardStyle {
    /// This style with its lengths (border, corner radius, text sizes, padding) times `s`.
    func scaled(by s: Double) -> CardStyle {
        guard s != 1 else { return self }
        var c = self
        c.borderWidth *= s
        c.cornerRadius *= s
        c.titleSize *= s
        c.subtitleSize *= s
        c.padding = padding.map { $0 * s }
        return c
    }
}

extension Theme {
    /// This theme with every length of what it draws times `s` (colours, fonts and counts kept).
    func scaled(by s: Double) -> Theme {
        guard s != 1 else { return self }
        var t = self
        t.card = card.scaled(by: s)
        t.pageIndicator.dotSize *= s
        t.pageIndicator.spacing *= s
        t.pageIndicator.margin *= s
        t.titleOverlay.size *= s
        t.titleOverlay.margin *= s
        t.dialRing.width *= s
        return t
    }
}

extension ItemConfig {
    /// This item with its card style's lengths times `s`.
    func scaled(by s: Double) -> ItemConfig {
        guard s != 1 else { return self }
        var i = self
        i.style = style.scaled(by: s)
        return i
    }
}

extension DialOptions {
    /// The dial's ring in scene pixels: centre and radii times `s`.
    func scaled(by s: Double) -> DialOptions {
        guard s != 1 else { return self }
        var d = self
        d.center = Point2(center.x * s, center.y * s)
        d.innerRadius *= s
        d.outerRadius *= s
        return d
    }
}
