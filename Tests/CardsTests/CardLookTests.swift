import CCardLibs
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// Pieces of the face: text in several scripts, wrapping and ellipsis, corners, border,
/// gradient, shadow.
final class CardLookTests: XCTestCase {
    func layout(_ text: String, lines: Int = 2, width: Double = 300, font: String = "DejaVu Sans") -> TextLayout {
        let ctx = CairoContext(texture: Texture(width: 4, height: 4))
        return TextBlock(text: text, font: font, size: 24, color: 0xFFFF_FFFF, alignment: "center", lines: lines, bold: false)
            .layout(on: ctx, width: width)
    }

    func testEveryScriptHasGlyphsThroughFontFallback() {
        for text in ["Kiosk Carousel", "مرحبا بالعالم", "नमस्ते दुनिया", "你好，世界", "こんにちは", "안녕하세요"] {
            let l = layout(text)
            XCTAssertEqual(pango_layout_get_unknown_glyphs_count(l.layout), 0, "missing glyphs for \(text)")
            XCTAssertGreaterThan(l.size.width, 20, text)
        }
    }

    func testArabicIsRightToLeft() {
        let l = layout("مرحبا بالعالم")
        XCTAssertEqual(pango_context_get_base_dir(pango_layout_get_context(l.layout)), PANGO_DIRECTION_WEAK_LTR)
        XCTAssertEqual(pango_layout_get_direction(l.layout, 0), PANGO_DIRECTION_RTL)
    }

    func testWrapsToNLinesWithEllipsis() {
        let long = String(repeating: "Wrapped words go on and on ", count: 10)
        let two = layout(long, lines: 2, width: 240)
        XCTAssertEqual(two.lineCount, 2)
        XCTAssertTrue(two.isEllipsized)
        let three = layout(long, lines: 3, width: 240)
        XCTAssertEqual(three.lineCount, 3)
        let short = layout("Short", lines: 2, width: 240)
        XCTAssertEqual(short.lineCount, 1)
        XCTAssertFalse(short.isEllipsized)
    }

    func testCornersAreTransparentAndBorderDrawn() {
        var style = CardStyle()
        style.cornerRadius = 20
        style.borderWidth = 4
        style.borderColor = 0xFFFF_0000
        style.background = 0xFF00_00FF
        let t = CardFaceRenderer().render(ItemConfig(id: "c", title: "", style: style), width: 100, height: 80)
        XCTAssertEqual(t[0, 0] >> 24, 0)
        XCTAssertEqual(t[50, 1], 0xFFFF_0000)
        XCTAssertEqual(t[50, 40], 0xFF00_00FF)
    }

    func testVerticalGradientAndShadow() {
        var style = CardStyle()
        style.cornerRadius = 0
        style.background = 0xFFFF_FFFF
        style.backgroundBottom = 0xFF00_0000
        let g = CardFaceRenderer().render(ItemConfig(id: "g", title: "", style: style), width: 10, height: 101)
        XCTAssertGreaterThan(g.argb(5, 0).r, 250)
        XCTAssertEqual(g.argb(5, 50).r, 128, accuracy: 3)
        XCTAssertLessThan(g.argb(5, 100).r, 5)

        // Shadow: white photo, the top untouched, the bottom ~90 % black.
        let tmp = TempDir()
        let path = tmp.file("white.png")
        try! TexturePNG.write(Texture(width: 10, height: 10) { _, _ in 0xFFFF_FFFF }, to: path)
        style.backgroundBottom = nil
        style.shadow = true
        let s = CardFaceRenderer().render(ItemConfig(id: "s", title: "", image: path, style: style), width: 10, height: 200)
        XCTAssertEqual(s.argb(5, 10).r, 255)
        XCTAssertEqual(s.argb(5, 199).r, 26, accuracy: 4)     // 255 × (1 − 0.9)
        style.shadow = false
        let n = CardFaceRenderer().render(ItemConfig(id: "s", title: "", image: path, style: style), width: 10, height: 200)
        XCTAssertEqual(n.argb(5, 199).r, 255)
    }

    func testPlaceholderAndLoadingFaces() {
        let r = CardFaceRenderer()
        var style = CardStyle()
        style.cornerRadius = 0
        let loading = r.loadingFace(style: style, width: 40, height: 30)
        XCTAssertEqual(loading[20, 15], 0xFF30_3A46)
        let placeholder = r.placeholderFace(style: style, width: 40, height: 30)
        XCTAssertLessThan(placeholder[20, 15] >> 24, 0x60)
        XCTAssertGreaterThan(placeholder[20, 15] >> 24, 0x20)
    }

    func testRendererIsUsableAsCardRenderer() {
        let r: CardRenderer = CardFaceRenderer()
        let t = r.render(ItemConfig(id: "x", title: "X"), width: 64, height: 48)
        XCTAssertEqual(t.width, 64)
        XCTAssertEqual(t.height, 48)
    }
}

/// Issue 27 §17: emoji on a card are drawn in colour from Noto Color Emoji (Debian's
/// `fonts-noto-color-emoji`, which the package recommends), not as a hex box or a black-and-white
/// glyph of a text font.
final class EmojiTests: XCTestCase {
    /// Pixels of `texture` whose channels differ by more than 80: coloured, not grey.
    func colouredPixels(_ texture: Texture) -> Int {
        var n = 0
        for y in 0..<texture.height {
            for x in 0..<texture.width {
                let p = texture[x, y]
                let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
                if max(r, g, b) - min(r, g, b) > 80 { n += 1 }
            }
        }
        return n
    }

    func testEmojiAreDrawnInColourOnACard() {
        var style = CardStyle()
        style.background = 0xFF40_4040   // grey: any coloured pixel is the emoji's
        style.titleColor = 0xFFFF_FFFF
        let plain = CardFaceRenderer().render(ItemConfig(id: "p", title: "Castle Hand", style: style), width: 240, height: 160)
        XCTAssertEqual(colouredPixels(plain), 0, "the card and its text alone are grey")
        for emoji in ["🏰", "✋", "😀", "👍🏽", "🇬🇧"] {
            let ctx = CairoContext(texture: Texture(width: 4, height: 4))
            let layout = TextBlock(text: emoji, font: style.font, size: 40, color: 0xFFFF_FFFF, alignment: "center", lines: 1, bold: false)
                .layout(on: ctx, width: 200)
            XCTAssertEqual(pango_layout_get_unknown_glyphs_count(layout.layout), 0,
                           "\(emoji) is a hex box: install fonts-noto-color-emoji (debian/control's Build-Depends: make deps)")
            let face = CardFaceRenderer().render(ItemConfig(id: "e", title: "\(emoji) Castle", style: style), width: 240, height: 160)
            XCTAssertGreaterThan(colouredPixels(face), 30,
                                 "\(emoji) is not drawn in colour: install fonts-noto-color-emoji (debian/control's Build-Depends: make deps)")
        }
    }
}
