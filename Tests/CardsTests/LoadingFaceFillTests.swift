@testable import Cards
import CCardLibs
import KioskConfig
import Raster
import XCTest

/// The loading face written without cairo (`LoadingFaceFill`) against the same face drawn with
/// cairo alone (the gradient painted under the card's rounded clip, the border stroked): the
/// same pixels but at the curved edges, where cairo's arcs are polygons and its coverage is
/// sampled on other lines.
final class LoadingFaceFillTests: XCTestCase {
    /// The face as cairo draws it: clip to the rounded card, paint the gradient, stroke the border.
    private func cairoFace(_ style: CardStyle, width: Int, height: Int) -> Texture {
        let texture = Texture(width: width, height: height)
        let ctx = CairoContext(texture: texture)
        let renderer = CardFaceRenderer()
        let W = Double(width), H = Double(height)
        renderer.clipToCard(ctx, style: style, width: W, height: H)
        ctx.paintVertical(top: style.background, bottom: style.backgroundBottom, y0: 0, y1: H)
        cairo_reset_clip(ctx.cr)
        renderer.strokeBorder(ctx, style: style, width: W, height: H)
        ctx.flush()
        return texture
    }

    private func cases() -> [(name: String, style: CardStyle, width: Int, height: Int)] {
        var out: [(String, CardStyle, Int, Int)] = []
        var style = CardStyle()
        out.append(("the default card: gradient, radius 12, no border", style, 200, 150))
        style.borderWidth = 3
        style.borderColor = 0xFFFF_FFFF
        out.append(("a 3 px white border", style, 240, 180))
        style.borderWidth = 1.5
        style.borderColor = 0x80FF_C000
        out.append(("a translucent 1.5 px border", style, 131, 77))
        style.cornerRadius = 0
        style.borderWidth = 4
        out.append(("square corners, square border", style, 97, 61))
        style.cornerRadius = 3
        style.borderWidth = 10
        out.append(("a border wider than the radius (its inside square)", style, 120, 90))
        style.cornerRadius = 1
        style.borderWidth = 6
        out.append(("a radius under half the border (its path square)", style, 64, 64))
        style.cornerRadius = 500
        style.borderWidth = 2
        out.append(("a pill", style, 160, 40))
        style.cornerRadius = 7.3
        style.background = 0x80FF_2000
        style.backgroundBottom = 0xFF00_40FF
        style.borderWidth = 0
        out.append(("translucent to opaque, fractional radius", style, 64, 255))
        style.borderWidth = 200
        out.append(("a border wider than half the card", style, 50, 30))
        style = CardStyle()
        style.cornerRadius = 12
        out.append(("a card smaller than its corners", style, 9, 5))
        out.append(("one pixel", style, 1, 1))
        return out
    }

    func testTheFaceIsCairosButAtTheCurvedEdges() throws {
        try CardLibraries.loadDrawing()
        for c in cases() {
            let ours = LoadingFaceFill.face(style: c.style, width: c.width, height: c.height)
            let cairos = cairoFace(c.style, width: c.width, height: c.height)
            XCTAssertEqual(ours.width, cairos.width, c.name)
            XCTAssertEqual(ours.height, cairos.height, c.name)
            let d = ours.channelDifference(from: cairos)
            // Arcs as cairo's polygons (within 0.1 px of the arc), sampled on 15 lines a row
            // against 16: a pixel on a curve may differ by a tenth of its area.
            XCTAssertLessThanOrEqual(d.largest, 32, "\(c.name): \(d.largest) at \(d.at)")
            // Straight edges differ by the sampling alone (a half pixel: 8/15 against 8/16);
            // more only where an arc passes, a dozen pixels an arc at most (the cut corners'
            // arc, and the border's two).
            let arcs = 4 * (c.style.borderWidth > 0 ? 3 : 1)
            XCTAssertLessThanOrEqual(d.overTen, 12 * arcs, "\(c.name): \(d.overTen) pixels of \(c.width * c.height) differ by more than 10")
        }
    }

    /// The border with every column of its top and bottom bands sampled, as before stop 70:
    /// the faster fill (straight rows between the corners) draws the same pixels.
    func testTheBandsBetweenTheCornersAreTheSameAsSampledWhole() {
        for c in cases() {
            var style = c.style
            style.background = 0xFF10_2030
            style.backgroundBottom = 0xFF30_2010
            let ours = LoadingFaceFill.face(style: style, width: c.width, height: c.height)
            let sampled = Texture(width: max(1, c.width), height: max(1, c.height))
            VerticalGradientFill.fill(sampled, top: style.background, bottom: style.backgroundBottom)
            let W = Double(sampled.width), H = Double(sampled.height)
            LoadingFaceFill.cutCorners(sampled, card: RoundedRectCoverage(left: 0, top: 0, right: W, bottom: H, radius: style.cornerRadius))
            if style.borderWidth > 0 {
                let bw = min(style.borderWidth, min(W, H) / 2)
                let pathRadius = max(0, min(style.cornerRadius - bw / 2, min(W - bw, H - bw) / 2))
                let outer = RoundedRectCoverage(left: 0, top: 0, right: W, bottom: H, radius: pathRadius > 0 ? pathRadius + bw / 2 : 0)
                let inner = RoundedRectCoverage(left: bw, top: bw, right: W - bw, bottom: H - bw, radius: max(0, pathRadius - bw / 2))
                let color = PremultipliedMath.premultiplied(style.borderColor)
                for row in 0..<sampled.height {
                    var o = [Float](repeating: 0, count: sampled.width), i = o
                    outer.add(row: row, columns: 0..<sampled.width, weight: 1, into: &o)
                    inner.add(row: row, columns: 0..<sampled.width, weight: 1, into: &i)
                    for x in 0..<sampled.width {
                        let m = PremultipliedMath.byte(o[x] - i[x])
                        let at = row * sampled.width + x
                        if m > 0 { sampled.pixels[at] = PremultipliedMath.over(color, coverage: m, onto: sampled.pixels[at]) }
                    }
                }
            }
            XCTAssertLessThanOrEqual(ours.channelDifference(from: sampled).largest, 1, c.name)
        }
    }

    func testStraightEdgesAreExact() throws {
        try CardLibraries.loadDrawing()
        var style = CardStyle()
        style.cornerRadius = 0
        for bw in [1.0, 2.5, 3.25, 8] {
            style.borderWidth = bw
            let ours = LoadingFaceFill.face(style: style, width: 41, height: 23)
            let cairos = cairoFace(style, width: 41, height: 23)
            XCTAssertLessThanOrEqual(ours.channelDifference(from: cairos).largest, 1, "border \(bw)")
        }
    }

    func testCornersAreClearedAndTheMiddleIsTheGradient() {
        var style = CardStyle()
        style.cornerRadius = 10
        style.background = 0xFF40_8020
        style.backgroundBottom = nil
        let face = LoadingFaceFill.face(style: style, width: 50, height: 30)
        XCTAssertEqual(face[0, 0], 0, "outside the top-left arc")
        XCTAssertEqual(face[49, 29], 0, "outside the bottom-right arc")
        XCTAssertEqual(face[25, 15], 0xFF40_8020)
        XCTAssertEqual(face[0, 15], 0xFF40_8020, "the straight left edge is whole")
        let edge = face[2, 2] >> 24
        XCTAssertTrue(edge > 0 && edge < 255, "the arc passes through (2, 2): \(edge)")
        XCTAssertEqual(face[3, 3] >> 24, 255, "(3, 3) lies inside the arc")
        XCTAssertEqual(face[10, 10] >> 24, 255, "the arc's centre is inside")
    }
}
