import CarouselCore
import XCTest
@testable import Raster

final class FrameComposerTests: XCTestCase {
    private func composer() -> FrameComposer {
        FrameComposer(background: RT.canvas(160, 90), compositor: Compositor(filter: .bilinear))
    }

    private func moved(_ quads: [Quad], by dx: Double) -> [Quad] {
        quads.map { q in var m = q; m.corners = q.corners.map { Point2($0.x + dx, $0.y) }; return m }
    }

    private func fullRender(_ quads: [Quad]) -> Canvas {
        let c = RT.canvas(160, 90)
        Compositor(filter: .bilinear).draw(quads, into: c)
        return c
    }

    private func assertSame(_ a: Canvas, _ b: Canvas, _ message: String, line: UInt = #line) {
        let bad = (0..<(a.width * a.height)).filter { a.pixels[$0] != b.pixels[$0] }
        XCTAssertTrue(bad.isEmpty, "\(message): \(bad.count) pixels differ, first at \(bad.first.map { ($0 % a.width, $0 / a.width) }.debugDescription)", line: line)
    }

    func testFirstFrameIsFullAndAnIdleFrameTouchesNothing() {
        let f = composer(), quads = RT.overlappingCards()
        XCTAssertEqual(f.render(quads), [PixelRect(x: 0, y: 0, width: 160, height: 90)])
        XCTAssertEqual(f.render(quads), [])
        XCTAssertEqual(f.lastDamage.area, 0)
        assertSame(f.frame, fullRender(quads), "idle frame")
    }

    func testMovingQuadsDamageOldAndNewPlacesAndMatchAFullRedraw() {
        let f = composer(), quads = RT.overlappingCards()
        f.render(quads)
        for step in 1...6 {
            let now = moved(quads, by: Double(step) * 3.7)
            let damage = DamageRegion(f.render(now))
            for q in now + moved(quads, by: Double(step - 1) * 3.7) {
                let b = q.bounds.intersection(f.frame.bounds)
                XCTAssertTrue(damage.rects.contains { $0.intersection(b) == b }, "bounds \(b) inside the damage")
            }
            assertSame(f.frame, fullRender(now), "step \(step)")
        }
    }

    func testOnlyChangedQuadsAreDamaged() {
        let f = composer(), quads = RT.overlappingCards()
        f.render(quads)
        var changed = quads
        changed[4].alpha = 0.5
        let damage = DamageRegion(f.render(changed))
        XCTAssertEqual(damage.area, changed[4].bounds.intersection(f.frame.bounds).area)
        assertSame(f.frame, fullRender(changed), "alpha change")
    }

    /// A frame drawn over a solid colour (a full-screen clip's black) instead of the background
    /// damages the whole frame when it starts and when it ends, and nothing in between.
    func testDrawingOverAColourDamagesAllWhenItBeginsAndEnds() {
        let f = composer(), quads = RT.overlappingCards()
        f.render(quads)
        let whole = [PixelRect(x: 0, y: 0, width: 160, height: 90)]
        XCTAssertEqual(f.render([quads[0]], over: 0xFF00_0000), whole)
        XCTAssertEqual(f.frame.pixels[89 * f.frame.stride + 159] & 0xFF_FFFF, 0, "black where no quad is")
        let black = RT.canvas(160, 90)
        black.fill(0xFF00_0000)
        Compositor(filter: .bilinear).draw([quads[0]], into: black)
        assertSame(f.frame, black, "over black")
        XCTAssertEqual(f.render([quads[0]], over: 0xFF00_0000), [], "the same picture over the same colour")
        XCTAssertEqual(f.render(quads), whole)
        assertSame(f.frame, fullRender(quads), "back over the background")
    }

    /// A gradient given as one colour per row gives, frame after frame, the pixels the same
    /// gradient painted into a background image gives (it is blended onto as a solid colour per
    /// row, never written into memory of its own).
    func testABackdropOfRowsDrawsWhatTheSameImageDraws() {
        let rows: [UInt32] = (0..<90).map { (y: Int) -> UInt32 in
            let r = UInt32(y * 2) << 16, g = UInt32(255 - y) << 8, b = UInt32(y * 3 % 256)
            return 0xFF00_0000 | r | g | b
        }
        let image = Canvas(width: 160, height: 90)
        for (y, c) in rows.enumerated() { image.fill(c, x: 0, y: y, width: 160, height: 1) }
        let byImage = FrameComposer(background: image, compositor: Compositor(filter: .bilinear))
        let byRows = FrameComposer(width: 160, height: 90, backdrop: .rows(rows), compositor: Compositor(filter: .bilinear))
        let quads = RT.overlappingCards()
        XCTAssertEqual(byRows.render(quads), [PixelRect(x: 0, y: 0, width: 160, height: 90)], "the first frame is whole")
        byImage.render(quads)
        assertSame(byRows.frame, byImage.frame, "first frame")
        XCTAssertEqual(byRows.frame.pixels[89 * 160 + 159], rows[89], "a corner no card covers")
        for step in 1...4 {
            let now = moved(quads, by: Double(step) * 5.3)
            XCTAssertEqual(byRows.render(now), byImage.render(now), "step \(step)'s damage")
            assertSame(byRows.frame, byImage.frame, "step \(step)")
        }
        // Fewer rows than the canvas: the rows there are filled, the quads drawn over the rest.
        let short = RT.canvas(160, 90, 0xFF12_3456)
        Compositor(filter: .bilinear).draw(quads, into: short, backdrop: .rows(Array(rows[0..<40])))
        let expected = RT.canvas(160, 90, 0xFF12_3456)
        for y in 0..<40 { expected.fill(rows[y], x: 0, y: y, width: 160, height: 1) }
        Compositor(filter: .bilinear).draw(quads, into: expected)
        assertSame(short, expected, "a short list of rows")
    }

    func testDamageRegionMergesOverlapsAndKeepsDisjointRects() {
        var r = DamageRegion()
        r.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        r.add(PixelRect(x: 50, y: 50, width: 10, height: 10))
        XCTAssertEqual(r.rects.count, 2)
        XCTAssertEqual(r.area, 200)
        r.add(PixelRect(x: 5, y: 5, width: 10, height: 10))
        XCTAssertEqual(r.rects.count, 2)
        XCTAssertTrue(r.rects.contains(PixelRect(x: 0, y: 0, width: 15, height: 15)))
        r.add(PixelRect(x: 14, y: 14, width: 40, height: 40))  // bridges both
        XCTAssertEqual(r.rects, [PixelRect(x: 0, y: 0, width: 60, height: 60)])
        r.add(.empty)
        XCTAssertEqual(r.rects.count, 1)
    }
}
