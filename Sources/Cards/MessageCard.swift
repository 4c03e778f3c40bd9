import CCardLibs
import KioskConfig
import Raster

/// A screen that explains itself: a title, a few lines and a footer on a calm plate in the
/// middle of the screen, shown instead of the carousel (a configuration with problems, a
/// carousel with no items). Whatever has something to say to the person in front of the
/// screen (a config file, later a USB stick) builds one of these; `MessageCardRenderer` draws it.
public struct MessageCard: Equatable, Sendable {
    /// A problem gets an amber "!" next to its title; a notice is plain.
    public enum Tone: Equatable, Sendable { case problem, notice }

    public var tone: Tone
    public var title: String
    /// The body, one entry a line (a long one wraps to three lines, then ends with an ellipsis).
    public var lines: [String]
    /// What happens next, in a quieter colour under the body.
    public var footer: String?
    /// At most this many body lines are shown; the rest are counted ("and 3 more").
    public var maxLines: Int

    public init(tone: Tone = .notice, title: String, lines: [String] = [], footer: String? = nil, maxLines: Int = 6) {
        self.tone = tone
        self.title = title
        self.lines = lines
        self.footer = footer
        self.maxLines = max(1, maxLines)
    }

    /// The body as drawn: the first `maxLines` lines, the last of them replaced by "and N more"
    /// when there are more.
    public var shownLines: [String] {
        guard lines.count > maxLines else { return lines }
        let kept = maxLines - 1
        return Array(lines.prefix(kept)) + ["and \(lines.count - kept) more"]
    }

    /// The configuration at `file` has problems: each `FILE:LINE:COLUMN: message` (just
    /// `FILE: message` when the problem has no place, such as a missing file).
    public static func configProblems(_ diagnostics: [ConfigDiagnostic], file: String) -> MessageCard {
        let unreadable = diagnostics.count == 1 && diagnostics[0].line == 0
        let lines = diagnostics.map { d in d.line > 0 ? d.description : "\(d.file): \(d.message)" }
        return MessageCard(tone: .problem,
                           title: unreadable ? "The configuration cannot be read" : "The configuration has problems",
                           lines: lines,
                           footer: "The kiosk starts as soon as \(file) is fixed.")
    }

    /// `[idle] warn_before`: the kiosk is about to go home or blank (EN 301 549 11.2.2.1), in
    /// `language` (`KioskStrings`).
    public static func idleWarning(language: String = "en") -> MessageCard {
        MessageCard(title: KioskStrings.text(.needMoreTime, language), lines: [KioskStrings.text(.needMoreTimeHint, language)],
                    footer: KioskStrings.text(.needMoreTimeFooter, language))
    }

    /// A carousel with no items: where to put them, in `language` (`KioskStrings`).
    public static func emptyCarousel(folder: String?, configFile: String, language: String = "en") -> MessageCard {
        let text = { (key: KioskText) in KioskStrings.text(key, language) }
        if let folder {
            return MessageCard(title: text(.noItemsYet), lines: [KioskStrings.text(.addPictures, language, folder)],
                               footer: text(.appearWhenCopied))
        }
        let file = configFile.isEmpty ? text(.theConfigFile) : configFile
        return MessageCard(title: text(.noItemsYet), lines: [KioskStrings.text(.addItemTables, language, file)],
                           footer: text(.appearWhenSaved))
    }
}

/// Draws a `MessageCard` as a texture the size of the screen (transparent around a rounded,
/// translucent plate, so the theme's background shows), fitted to that size: the text is sized
/// from the screen's shorter side and made smaller until everything fits; a long line wraps to
/// three lines, then ends with an ellipsis.
public enum MessageCardRenderer {
    /// What the card is drawn with (the theme's title font and colour by default).
    public struct Style: Equatable, Sendable {
        public var font = "Sans"
        public var textColor: ARGBColor = 0xFFFF_FFFF
        public var plate: ARGBColor = 0xB80A_0D10
        /// The text's size times this (large text), before fitting to the screen.
        public var textScale = 1.0
        public init() {}
        public init(theme: Theme) {
            font = theme.titleOverlay.font
            textColor = theme.titleOverlay.color
            plate = theme.messagePlate
            textScale = theme.messageTextScale
        }
    }

    public static func render(_ card: MessageCard, width: Int, height: Int, style: Style = Style()) -> Texture {
        let W = Double(max(1, width)), H = Double(max(1, height))
        let texture = Texture(width: max(1, width), height: max(1, height))
        let font = FontCatalog.missingFamilies(in: style.font).isEmpty ? style.font : "Sans"
        let unit = min(W, H)
        let plateW = min(W * 0.9, unit * 1.45)
        let ctx = CairoContext(texture: texture)
        var scale = style.textScale
        var laid = layout(card, on: ctx, font: font, style: style, unit: unit * scale, plateWidth: plateW)
        // Smaller text until the plate fits in 90 % of the height (a few tries are enough).
        for _ in 0..<6 where laid.height > H * 0.9 {
            scale *= max(0.5, min(0.92, H * 0.9 / laid.height))
            laid = layout(card, on: ctx, font: font, style: style, unit: unit * scale, plateWidth: plateW)
        }
        let plateH = min(laid.height, H)
        let x0 = ((W - plateW) / 2).rounded(), y0 = ((H - plateH) / 2).rounded()
        ctx.roundedRect(x: x0, y: y0, width: plateW, height: plateH, radius: laid.pad * 0.6)
        ctx.setColor(style.plate)
        cairo_fill(ctx.cr)
        var y = y0 + laid.pad
        let textX = x0 + laid.pad
        if let badge = laid.badge {
            let r = badge / 2
            CardFaceRenderer.drawBadge(ctx, cx: textX + r, cy: y + Double(laid.title.size.height) / 2, r: r)
        }
        laid.title.draw(on: ctx, x: textX + (laid.badge.map { $0 + laid.pad * 0.4 } ?? 0), y: y, shadow: false)
        y += Double(laid.title.size.height)
        if !laid.body.isEmpty {
            y += laid.gap
            for l in laid.body {
                l.draw(on: ctx, x: textX, y: y, shadow: false)
                y += Double(l.size.height) + laid.lineGap
            }
            y -= laid.lineGap
        }
        if let footer = laid.footer {
            y += laid.gap
            footer.draw(on: ctx, x: textX, y: y, shadow: false)
        }
        ctx.flush()
        return texture
    }

    /// The footer's quieter colour: the text colour at 69 % of its alpha (0xB0 for opaque text).
    static func footerColor(_ text: ARGBColor) -> ARGBColor {
        let alpha = (text >> 24) * 0xB0 / 0xFF
        return (text & 0x00FF_FFFF) | (alpha << 24)
    }

    private struct Laid {
        var title: TextLayout
        var body: [TextLayout]
        var footer: TextLayout?
        var badge: Double?
        var pad: Double
        var gap: Double
        var lineGap: Double
        var height: Double
    }

    private static func layout(_ card: MessageCard, on ctx: CairoContext, font: String, style: Style,
                               unit: Double, plateWidth: Double) -> Laid {
        let pad = (unit * 0.06).rounded()
        let titleSize = (unit * 0.06).rounded(), bodySize = (unit * 0.036).rounded()
        let inner = plateWidth - 2 * pad
        let badge: Double? = card.tone == .problem ? (titleSize * 1.1).rounded() : nil
        let title = TextBlock(text: card.title, font: font, size: titleSize, color: style.textColor,
                              alignment: "left", lines: 2, bold: true)
            .layout(on: ctx, width: inner - (badge.map { $0 + pad * 0.4 } ?? 0))
        let body = card.shownLines.map {
            TextBlock(text: $0, font: font, size: bodySize, color: style.textColor, alignment: "left", lines: 3, bold: false)
                .layout(on: ctx, width: inner)
        }
        let footer = card.footer.map {
            TextBlock(text: $0, font: font, size: bodySize, color: footerColor(style.textColor),
                      alignment: "left", lines: 2, bold: false)
                .layout(on: ctx, width: inner)
        }
        let gap = (bodySize * 1.1).rounded(), lineGap = (bodySize * 0.35).rounded()
        var h = 2 * pad + Double(max(title.size.height, Int(badge ?? 0)))
        if !body.isEmpty {
            h += gap + body.reduce(0.0) { $0 + Double($1.size.height) } + lineGap * Double(body.count - 1)
        }
        if let footer { h += gap + Double(footer.size.height) }
        return Laid(title: title, body: body, footer: footer, badge: badge, pad: pad, gap: gap, lineGap: lineGap, height: h)
    }
}
