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
