import XCTest
@testable import CarouselCore

/// Laying out reads the engine's state and never writes it; a tap's hit test uses the layout the
/// frame was drawn from while nothing it depends on changed.
final class LayoutCacheTests: XCTestCase {
    private func engine() -> CarouselEngine {
        var o = CarouselOptions()
        o.type = .coverflow
        o.itemSize = Size2(400, 300)
        let e = CarouselEngine(options: o, itemCount: 10, viewSize: Size2(1280, 720))
        e.setScrollOffset(5, now: 0)
        return e
    }

    func testLayingOutInAnotherSizeLeavesTheEnginesViewSizeAlone() {
        let e = engine()
        let small = e.layout(viewSize: Size2(640, 360))
        XCTAssertEqual(e.viewSize, Size2(1280, 720), "layout(viewSize:) is a question, not a setter")
        XCTAssertNotEqual(small.map(\.corners), e.layout().map(\.corners), "and it did lay out in the size asked for")
        XCTAssertEqual(e.layout(viewSize: Size2(1280, 720)).map(\.corners), e.layout().map(\.corners))
    }

    func testTheHitTestUsesTheLayoutTheFrameWasDrawnFrom() {
        let e = engine()
        let poses = e.layout()
        let drawn = e.layoutCache
        XCTAssertNotNil(drawn, "the frame's layout is kept")
        let centre = poses.first { $0.index == 5 }!
        let c = centre.corners
        let inside = Point2((c[0].x + c[2].x) / 2, (c[0].y + c[2].y) / 2)
        XCTAssertEqual(e.itemIndex(at: inside), 5)
        XCTAssertEqual(e.layoutCache?.generation, drawn?.generation, "no second layout for the hit test")
        e.setScrollOffset(6, now: 0)
        XCTAssertNil(e.layoutCache, "moving makes the kept layout stale")
        XCTAssertEqual(e.itemIndex(at: inside), 6, "and the hit test sees where the items are now")
        e.viewSize = Size2(1920, 1080)
        XCTAssertNil(e.layoutCache, "a new size too")
    }
}
