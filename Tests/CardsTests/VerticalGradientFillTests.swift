@testable import Cards
import CCardLibs
import KioskConfig
import Raster
import XCTest

/// A card's background written row by row with its corners cut (`paintBackground`'s fast path)
/// against cairo's linear gradient under the rounded clip it replaced: the same pixels, up to
/// rounding, but where a corner's arc passes (cut as the loading face's corners are,
/// `LoadingFaceFill`, whose tests bound that difference).
final class VerticalGradientFillTests: XCTestCase {
    /// The background as cairo drew it before: clip to the rounded card, paint the gradient.
    private func cairoBackground(_ style: CardStyle, width: Int, height: Int, alpha: Double) -> Texture {
        let texture = Texture(width: width, height: height)
        let ctx = CairoContext(texture: texture)
        let renderer = CardFaceRenderer()
        renderer.clipToCard(ctx, style: style, width: Double(width), height: Double(height))
        ctx.paintVertical(top: style.background, bottom: style.backgroundBottom, y0: 0, y1: Double(height), alpha: alpha)
        ctx.flush()
        return texture
    }

    private func fastBackground(_ style: CardStyle, width: Int, height: Int, alpha: Double) -> Texture {
        let texture = Texture(width: width, height: height)
        let ctx = CairoContext(texture: texture)
        CardFaceRenderer().paintBackground(ctx, style: style, width: Double(width), height: Double(height), alpha: alpha)
        ctx.flush()
        return texture
    }

    /// Whether (x, y) lies in one of `texture`'s four corner squares of side `radius` (clamped
    /// as the card's is), where the corners' cut may differ from cairo's clip.
    private func inCorner(_ texture: Texture, radius: Double) -> (Int, Int) -> Bool {
        let r = Int(max(0, min(radius, Double(min(texture.width, texture.height)) / 2)).rounded(.up))
        return { x, y in (x < r || x >= texture.width - r) && (y < r || y >= texture.height - r) }
    }

    func testTheFastBackgroundIsCairosUpToRounding() {
        var cases: [(name: String, style: CardStyle, width: Int, height: Int, alpha: Double)] = []
        var style = CardStyle()
        cases.append(("default gradient, radius 12", style, 200, 150, 1))
        style.cornerRadius = 0
        cases.append(("square corners", style, 97, 61, 1))
        style.cornerRadius = 500
        cases.append(("radius beyond half the side (a pill)", style, 120, 40, 1))
        style.cornerRadius = 7.3
        style.background = 0x80FF_2000
        style.backgroundBottom = 0xFF00_40FF
        cases.append(("translucent to opaque, fractional radius", style, 64, 255, 1))
        style.backgroundBottom = nil
        cases.append(("flat colour", style, 33, 17, 1))
        style.background = 0xFF20_3040
        style.backgroundBottom = 0xFFE0_D0C0
        cases.append(("placeholder alpha", style, 150, 300, 0.3))
        cases.append(("one row", style, 50, 1, 1))
        style.background = 0xFF00_0000
        style.backgroundBottom = 0xFFFF_FFFF
        style.cornerRadius = 2
        cases.append(("steep: black to white in 8 rows (sampled at the rows' centres)", style, 20, 8, 1))
        for c in cases {
            let cairos = cairoBackground(c.style, width: c.width, height: c.height, alpha: c.alpha)
            let d = fastBackground(c.style, width: c.width, height: c.height, alpha: c.alpha)
                .channelDifference(from: cairos, skipping: inCorner(cairos, radius: c.style.cornerRadius))
            XCTAssertLessThanOrEqual(d.largest, 1, "\(c.name): a channel differs by \(d.largest) at \(d.at)")
        }
    }

    func testTheCornersAreCutAndTheMiddleIsFull() {
        var style = CardStyle()
        style.cornerRadius = 20
        style.background = 0xFF40_5060
        style.backgroundBottom = nil
        let t = fastBackground(style, width: 100, height: 80, alpha: 1)
        for (x, y) in [(0, 0), (99, 0), (0, 79), (99, 79)] { XCTAssertEqual(t[x, y], 0, "corner pixel (\(x), \(y)) is outside the card") }
        for (x, y) in [(50, 0), (0, 40), (50, 40), (99, 40), (50, 79)] { XCTAssertEqual(t[x, y], 0xFF40_5060, "(\(x), \(y)) is inside") }
    }
}
