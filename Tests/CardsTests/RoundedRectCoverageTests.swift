@testable import Cards
import CCardLibs
import KioskConfig
import Raster
import XCTest

/// Rounded rectangles, circles and pills filled without cairo (`RoundedRectCoverage`, the page
/// indicator's dots and the loading face's shapes): their area, and against cairo's fill of the
/// same shapes.
final class RoundedRectCoverageTests: XCTestCase {
    /// Each row's coverage of `shape` in columns 0..<width, rows 0..<rows.
    private func rowCoverages(_ shape: RoundedRectCoverage, rows: Int, width: Int) -> [[Float]] {
        (0..<rows).map { row in
            var coverage = [Float](repeating: 0, count: width)
            shape.add(row: row, columns: 0..<width, weight: 1, into: &coverage)
            return coverage
        }
    }

    func testCoverageOfARowAddsUpToTheArea() {
        // A 10 × 4 rectangle at (2.5, 0.25): every row's coverage sums to its area in that row.
        let rows = rowCoverages(RoundedRectCoverage(left: 2.5, top: 0.25, right: 12.5, bottom: 4.25, radius: 0), rows: 6, width: 16)
        for (row, coverage) in rows.enumerated() {
            XCTAssertEqual(coverage[2], row == 0 ? 0.375 : (row < 4 ? 0.5 : (row == 4 ? 0.125 : 0)), accuracy: 1e-5, "row \(row)")
        }
        XCTAssertEqual(rows.joined().reduce(0, +), 40, accuracy: 1e-3)
        // A circle of radius 8: its area to within the sampling.
        let disc = rowCoverages(RoundedRectCoverage(left: 0, top: 0, right: 16, bottom: 16, radius: 8), rows: 16, width: 16)
        XCTAssertEqual(Double(disc.joined().reduce(0, +)), Double.pi * 64, accuracy: 0.3)
    }

    /// Circles and a pill at fractional places, filled over a translucent ground, against cairo's
    /// `cairo_arc` fills of the same: as close as the loading face's corners.
    func testFillsAreCairosButAtTheCurvedEdges() throws {
        try CardLibraries.loadDrawing()
        let shapes: [(name: String, x: Double, y: Double, w: Double, h: Double, r: Double, color: ARGBColor)] = [
            ("a dot of 8 px at a half pixel", 10.5, 4.5, 8, 8, 4, 0xFFFF_FFFF),
            ("a dot of 10.4 px at a fraction", 30.3, 3.7, 10.4, 10.4, 5.2, 0x8C_FF_FF_FF),
            ("a pill", 2, 20, 60, 12, 6, 0xCC10_2030),
            ("a dot of 1 px", 50.2, 5.1, 1, 1, 0.5, 0xFF00_FF00),
        ]
        for s in shapes {
            let ours = Texture(width: 70, height: 36), cairos = Texture(width: 70, height: 36)
            for t in [ours, cairos] { for i in 0..<(t.width * t.height) { t.pixels[i] = 0x4020_1008 } }
            RoundedRectCoverage(left: s.x, top: s.y, right: s.x + s.w, bottom: s.y + s.h, radius: s.r).fill(ours, color: s.color)
            let ctx = CairoContext(texture: cairos)
            ctx.markDirty()
            ctx.roundedRect(x: s.x, y: s.y, width: s.w, height: s.h, radius: s.r)
            ctx.setColor(s.color)
            cairo_fill(ctx.cr)
            ctx.flush()
            let d = ours.channelDifference(from: cairos)
            XCTAssertLessThanOrEqual(d.largest, 32, "\(s.name): \(d.largest) at \(d.at)")
            XCTAssertLessThanOrEqual(d.overTen, 4 * 12, s.name)
            XCTAssertNotEqual(ours[Int(s.x + s.w / 2), Int(s.y + s.h / 2)], 0x4020_1008, "\(s.name): its middle is painted")
        }
    }

    func testAShapeOutsideTheTextureOrClearPaintsNothing() {
        let t = Texture(width: 8, height: 8)
        RoundedRectCoverage(left: 20, top: 20, right: 30, bottom: 30, radius: 5).fill(t, color: 0xFFFF_FFFF)
        RoundedRectCoverage(left: -30, top: 2, right: -20, bottom: 6, radius: 2).fill(t, color: 0xFFFF_FFFF)
        RoundedRectCoverage(left: 0, top: 0, right: 8, bottom: 8, radius: 2).fill(t, color: 0x00FF_FFFF)
        RoundedRectCoverage(left: 0, top: .nan, right: 8, bottom: 8, radius: 2).fill(t, color: 0xFFFF_FFFF)
        RoundedRectCoverage(left: 0, top: 0, right: .infinity, bottom: 8, radius: 2).fill(t, color: 0xFFFF_FFFF)
        XCTAssertEqual(t.pixelArray(), [UInt32](repeating: 0, count: 64))
        // Half off the left edge: only the columns inside are painted, by their share.
        RoundedRectCoverage(left: -4, top: 0, right: 4, bottom: 8, radius: 0).fill(t, color: 0xFFFF_FFFF)
        XCTAssertEqual(t[3, 3], 0xFFFF_FFFF)
        XCTAssertEqual(t[4, 3], 0)
    }
}
