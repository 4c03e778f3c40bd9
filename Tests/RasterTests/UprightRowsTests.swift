import CarouselCore
import XCTest
@testable import Raster
@testable import RasterKernels

/// `UprightRows`: the rows of upright quads whose span and occluded columns are worked out once
/// must give exactly what the per-row computation gives, on every row.
final class UprightRowsTests: XCTestCase {
    /// An opaque texture, so that quads at alpha 1 have an occluder.
    private static let opaque = Texture(width: 40, height: 30) { x, y in 0xFF00_0000 | UInt32(x * 5) << 8 | UInt32(y * 7) }
    /// Opaque but for transparent rounded corners (radius 6): two opaque rectangles, a cross.
    private static let rounded = Texture(width: 40, height: 30) { x, y in
        let cx = x < 6 ? 6 - x : (x >= 34 ? x - 33 : 0), cy = y < 6 ? 6 - y : (y >= 24 ? y - 23 : 0)
        return cx * cx + cy * cy > 36 ? 0 : 0xFF00_0000 | UInt32(x * 5) << 8 | UInt32(y * 7)
    }

    private func rows(_ corners: [Point2], clip: PixelRect = PixelRect(x: 0, y: 0, width: 300, height: 200),
                      alpha: Double = 1, texture: Texture = UprightRowsTests.opaque) -> PreparedQuad? {
        PreparedQuad(Quad(texture: texture, corners: corners, alpha: alpha), clip: clip, filter: .bilinear)
    }

    /// Every row of the quad and 3 rows either side: span and occluded columns with the steady
    /// rows against the same quad computing each row.
    private func assertSameRows(_ q: PreparedQuad, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        var plain = q
        plain.upright = .none
        for y in (q.rows.lowerBound - 3)..<(q.rows.upperBound + 3) {
            let a = q.span(row: y), b = plain.span(row: y)
            XCTAssertEqual(a.map { [$0.lo, $0.hi, $0.innerLo, $0.innerHi] }, b.map { [$0.lo, $0.hi, $0.innerLo, $0.innerHi] },
                           "\(what) row \(y): span", file: file, line: line)
            for inner in [b.map { $0.innerLo..<$0.innerHi } ?? 0..<0, 0..<300, 17..<18] {
                XCTAssertEqual(q.occludedColumns(row: y, inner: inner), plain.occludedColumns(row: y, inner: inner),
                               "\(what) row \(y) inner \(inner): occluded columns", file: file, line: line)
            }
        }
    }

    func testUprightRowsMatchTheGeneralRows() throws {
        let cases: [(String, [Point2], PixelRect?)] = [
            ("scaled", RT.rect(10.3, 20.6, 130.7, 110.2), nil),
            ("integral edges", RT.rect(10, 20, 130, 110), nil),
            ("half-pixel edges", RT.rect(10.5, 20.5, 130.5, 110.5), nil),
            ("minified, thin", RT.rect(50.25, 60.75, 62.5, 64.1), nil),
            ("one row", RT.rect(50.25, 60.2, 90.5, 60.9), nil),
            ("mirrored", [Point2(130.7, 20.6), Point2(10.3, 20.6), Point2(10.3, 110.2), Point2(130.7, 110.2)], nil),
            ("turned by 90°", [Point2(140, 10), Point2(140, 170), Point2(20, 170), Point2(20, 10)], nil),
            ("past the frame", RT.rect(-40.4, -30.3, 350.6, 260.2), nil),
            ("clipped", RT.rect(10.3, 20.6, 130.7, 110.2), PixelRect(x: 30, y: 40, width: 50, height: 30)),
        ]
        var steady = 0
        for (what, corners, clip) in cases {
            let q = try XCTUnwrap(clip.map { rows(corners, clip: $0) } ?? rows(corners), what)
            XCTAssertNotNil(q.occluder, what)
            steady += q.upright.rows.count
            assertSameRows(q, what)
        }
        XCTAssertGreaterThan(steady, 500, "the steady rows are used")
        // A translucent card (no occluder) and a tilted one (no steady rows) too.
        let translucent = try XCTUnwrap(rows(RT.rect(10.3, 20.6, 130.7, 110.2), alpha: 0.5))
        XCTAssertNil(translucent.occluder)
        XCTAssertFalse(translucent.upright.rows.isEmpty)
        assertSameRows(translucent, "translucent")
        // Rounded corners: two occluders, both with steady rows, mirrored and turned too.
        for (what, corners) in [("rounded", RT.rect(10.3, 20.6, 130.7, 110.2)),
                                ("rounded, mirrored", [Point2(130.7, 20.6), Point2(10.3, 20.6), Point2(10.3, 110.2), Point2(130.7, 110.2)]),
                                ("rounded, turned by 90°", [Point2(140, 10), Point2(140, 170), Point2(20, 170), Point2(20, 10)])] {
            let q = try XCTUnwrap(rows(corners, texture: Self.rounded), what)
            XCTAssertNotNil(q.secondOccluder, what)
            XCTAssertFalse(q.upright.occluded.0.rows.isEmpty || q.upright.occluded.1.rows.isEmpty, what)
            assertSameRows(q, what)
        }
        let tilted = try XCTUnwrap(rows([Point2(20, 20), Point2(140, 30), Point2(135, 120), Point2(18, 110)]))
        XCTAssertTrue(tilted.upright.rows.isEmpty && tilted.upright.occluded.0.rows.isEmpty && tilted.upright.occluded.1.rows.isEmpty)
        assertSameRows(tilted, "tilted")
    }
}
