import CCardLibs
import KioskConfig
import Raster

/// The language badge (`[languages]` with two or more languages): the shown language's code in
/// capitals ("EN", "DE") on a round-ended plate in the top right corner, in the title overlay's
/// font and colour, about half its size — where it names the language without covering a card,
/// and large enough to tap (it is the on-screen language control: a tap shows the next language).
public enum LanguageBadge {
    /// Where the badge is drawn on a screen of `width × height` (drawn pixels): the same box for
    /// every code, so it does not jump when the language changes and a tap finds it.
    public static func frame(screenWidth width: Int, screenHeight height: Int, style: TitleOverlayStyle) -> (x: Int, y: Int, width: Int, height: Int) {
        let h = Int(max(28, min(style.size * 1.1, Double(min(width, height)) * 0.09)).rounded())
        let w = h * 2
        let margin = max(8, h / 2)
        return (max(0, width - w - margin), margin, w, h)
    }

    /// The badge showing `code` (its first subtag, in capitals).
    public static func render(code: String, screenWidth: Int, screenHeight: Int, style: TitleOverlayStyle) -> Overlay {
        let f = frame(screenWidth: screenWidth, screenHeight: screenHeight, style: style)
        let texture = Texture(width: f.width, height: f.height)
        let ctx = CairoContext(texture: texture)
        let h = Double(f.height)
        ctx.roundedRect(x: 0, y: 0, width: Double(f.width), height: h, radius: h / 2)
        // The title's plate when it has one, else a dark translucent one: legible over any picture.
        ctx.setColor(style.background >> 24 != 0 ? style.background : 0xB80A_0D10)
        cairo_fill(ctx.cr)
        let label = String(code.split(separator: "-").first ?? Substring(code)).uppercased()
        let block = TextBlock(text: label, font: style.font, size: h * 0.5, color: style.color, alignment: "center", lines: 1, bold: true)
        let laid = block.layout(on: ctx, width: Double(f.width))
        laid.draw(on: ctx, x: 0, y: (h - Double(laid.size.height)) / 2, shadow: false)
        ctx.flush()
        return Overlay(texture: texture, x: f.x, y: f.y)
    }
}
