import KioskConfig
import Raster
import XCTest
@testable import Cards

/// The layers a playing clip's face blends over each frame (`FaceOverlay`): pixman's rounding,
/// and only the pixels the corners, text, shadow and border touch. That the faces equal cairo's
/// full redraw byte for byte is `VideoFaceComposerTests`.
final class FaceOverlayTests: XCTestCase {
    /// x × a / 255 per channel as pixman rounds it: t = x·a + 128, (t + t / 256) / 256.
    func testMultiplyRoundsAsPixmanForEveryChannelValueAndFactor() {
        for a in UInt32(0)...255 {
            for x in UInt32(0)...255 {
                let t = x * a + 128
                let expected = (t + (t >> 8)) >> 8
                // The four channels at once, each with a different value.
                let y = (x + 85) & 0xFF, z = (x * 7) & 0xFF, w = 255 - x
                let pixel = x << 24 | y << 16 | z << 8 | w
                let got = FaceOverlay.multiply(pixel, by: a)
                func rounded(_ v: UInt32) -> UInt32 { let t = v * a + 128; return (t + (t >> 8)) >> 8 }
                XCTAssertEqual(got >> 24, expected, "alpha \(x) × \(a)")
                XCTAssertEqual(got, rounded(x) << 24 | rounded(y) << 16 | rounded(z) << 8 | rounded(w), "\(pixel) × \(a)")
                if got >> 24 != expected { return }
            }
        }
    }

    /// A card with a title and rounded corners, no shadow or border: the layers hold the text's
    /// rows (its soft shadow, then its glyphs) and the corners only — a small part of the card.
    func testAPlainCardsOverlayTouchesOnlyItsCornersAndText() throws {
        var item = ItemConfig(id: "plain", title: "Harbour")
        item.video = "/nonexistent/clip.mp4"
        let renderer = CardFaceRenderer()
        let background = Texture(width: 480, height: 360)
        let ctx = CairoContext(texture: background)
        renderer.paintBackground(ctx, style: item.style, width: 480, height: 360)
        ctx.flush()
        let text = renderer.textStack(item, on: ctx, width: 480, height: 360)
        let overlay = try XCTUnwrap(FaceOverlay(width: 480, height: 360, background: background,
                                  clip: { renderer.clipToCard($0, style: item.style, width: 480, height: 360) },
                                  overPicture: { c in
            renderer.clipToCard(c, style: item.style, width: 480, height: 360)
            renderer.finishCard(c, style: item.style, width: 480, height: 360) { c, W, H in
                renderer.drawOverCoverPicture(item, text: text, on: c, width: W, height: H)
            }
        }), "the replay gives cairo's bytes")
        XCTAssertEqual(overlay.layers.count, 2, "the text's shadow and the text")
        let touched = overlay.layers.reduce(0) { $0 + $1.pixels.count } + overlay.corners.coverage.pixels.count
        XCTAssertGreaterThan(touched, 0)
        XCTAssertLessThan(touched, 480 * 360 / 10, "\(touched) pixels blended a frame")
        let rows = Set(overlay.corners.coverage.spans.map(\.y))
        XCTAssertTrue(rows.allSatisfy { $0 < 14 || $0 >= 360 - 14 }, "corner pixels only in the corners' rows: \(rows.sorted())")
        XCTAssertTrue(overlay.corners.coverage.spans.allSatisfy { $0.x < 14 || $0.x + $0.count > 480 - 14 })
    }
}
