/// The theme variants of issue 30's "Seeing": large text and high contrast, applied to a whole
/// configuration (its theme, every item's card style, and in high contrast the carousel's side
/// card fading) before anything is drawn. Pure: the same configuration and look always give the
/// same result, and `AccessibleLook()` (both off) gives the configuration back unchanged, so a
/// kiosk with accessibility off draws exactly what it drew before.
public struct AccessibleLook: Equatable, Sendable {
    public var largeText: Bool
    public var highContrast: Bool

    public init(largeText: Bool = false, highContrast: Bool = false) {
        self.largeText = largeText
        self.highContrast = highContrast
    }

    /// What `[accessibility]` starts with.
    public init(_ settings: AccessibilitySettings) {
        self.init(largeText: settings.largeText, highContrast: settings.highContrast)
    }

    /// Neither variant: the configuration as written.
    public var isPlain: Bool { !largeText && !highContrast }

    /// Card text (title and subtitle) times this in large text, with one more line each: the
    /// card's size is the layout's, so more would leave only an ellipsis of a title.
    public static let cardTextScale = 1.5
    /// The focused item's title over the carousel times this: it has the width of the screen.
    public static let titleOverlayScale = 2.0
    /// Notices and problem cards times this (they are fitted to the screen, smaller if needed).
    public static let messageTextScale = 1.5

    /// High contrast's colours: white text on black; dots other than the current one grey
    /// (#A0A0A0: 8.0:1 on black) so the current one, white and larger, still stands out.
    public static let text: ARGBColor = 0xFFFF_FFFF
    public static let plate: ARGBColor = 0xFF00_0000
    public static let otherDot: ARGBColor = 0xFFA0_A0A0

    /// `config` with this look's theme and card styles.
    public func apply(to config: KioskConfiguration) -> KioskConfiguration {
        guard !isPlain else { return config }
        var c = config
        // Faded side cards would be dimmed text over whatever is behind them: none in high contrast.
        if highContrast { c.carousel.fadeMinAlpha = 1 }
        c.theme = apply(to: config.theme)
        c.items = config.items.map { item in
            var i = item
            i.style = apply(to: item.style)
            return i
        }
        return c
    }

    /// `theme` with this look (its default card style too).
    public func apply(to theme: Theme) -> Theme {
        var t = theme
        t.card = apply(to: theme.card)
        if largeText {
            t.titleOverlay.size *= Self.titleOverlayScale
            t.titleOverlay.lines = max(t.titleOverlay.lines, 2)  // a long title wraps, not cut
            t.messageTextScale *= Self.messageTextScale
            t.pageIndicator.dotSize *= Self.cardTextScale
        }
        if highContrast {
            t.background = Self.plate
            t.backgroundBottom = nil
            t.titleOverlay.color = Self.text
            t.titleOverlay.background = Self.plate
            t.messagePlate = Self.plate
            t.pageIndicator.plate = Self.plate
            t.pageIndicator.color = Self.otherDot
            t.pageIndicator.currentColor = Self.text
            t.dialRing.color = Self.text
        }
        return t
    }

    /// A card style with this look: larger text on more lines; white text on an opaque black
    /// band where it sits on a picture, a white border round a black card.
    public func apply(to style: CardStyle) -> CardStyle {
        var s = style
        if largeText {
            s.titleSize *= Self.cardTextScale
            s.subtitleSize *= Self.cardTextScale
            if s.titleLines > 0 { s.titleLines += 1 }
            if s.subtitleLines > 0 { s.subtitleLines += 1 }
        }
        if highContrast {
            s.background = Self.plate
            s.backgroundBottom = nil
            s.titleColor = Self.text
            s.subtitleColor = Self.text
            s.textPlate = Self.plate
            s.shadow = false
            s.borderColor = Self.text
            s.borderWidth = max(s.borderWidth, 3)
        }
        return s
    }
}
