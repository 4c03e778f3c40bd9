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
