import XCTest
@testable import Kiosk

/// `render_scale = "auto"`: the decision from made-up frame times (60 Hz: 16.7 ms per refresh).
final class RenderScaleGovernorTests: XCTestCase {
    func drag(_ g: inout RenderScaleGovernor, ms: [Double]) {
        for t in ms { g.frame(duration: t / 1000, dragging: true) }
    }

    func testSlowDragFramesSwitchToHalfBetweenGesturesOnly() {
        var g = RenderScaleGovernor(refreshRate: 60, window: 8)
        drag(&g, ms: Array(repeating: 25, count: 7))
        XCTAssertNil(g.due, "fewer than the window: no decision")
        drag(&g, ms: [25])
        XCTAssertEqual(g.due, 0.5)
        XCTAssertEqual(g.scale, 1, "never mid-drag: the switch waits")
        let s = g.betweenGestures()
        XCTAssertEqual(s?.from, 1)
        XCTAssertEqual(s?.to, 0.5)
        XCTAssertEqual(s?.medianFrameTime ?? 0, 0.025, accuracy: 1e-9)
        XCTAssertEqual(s?.frames.count, 8, "the frame times are there to log")
        XCTAssertEqual(g.scale, 0.5)
        XCTAssertTrue(g.recent.isEmpty, "the window starts over at the new scale")
        XCTAssertNil(g.betweenGestures(), "one switch, logged once")
    }

    func testFramesAtRestOrFastDragsDoNotSwitch() {
        var g = RenderScaleGovernor(refreshRate: 60, window: 8)
        for _ in 0..<20 { g.frame(duration: 0.05, dragging: false) }
        XCTAssertNil(g.due, "only drag frames count")
        drag(&g, ms: Array(repeating: 12, count: 20))
        XCTAssertNil(g.due)
        // A few slow frames among fast ones: the median fits.
        drag(&g, ms: [40, 12, 40, 12, 12, 40, 12, 12])
        XCTAssertNil(g.due)
        XCTAssertNil(g.betweenGestures())
        XCTAssertEqual(g.scale, 1)
    }

    func testHysteresisGoesBackOnlyWithRoomToSpare() {
        var g = RenderScaleGovernor(refreshRate: 60, window: 4, fitMargin: 0.6)
        drag(&g, ms: [20, 20, 20, 20])
        _ = g.betweenGestures()
        XCTAssertEqual(g.scale, 0.5)
        // 4 ms at ½ → about 16 ms at full size: would barely fit; 0.6 × 16.7 = 10 ms is the bar.
        drag(&g, ms: [4, 4, 4, 4])
        XCTAssertNil(g.due, "barely fitting is not enough: no flapping")
        // 2 ms at ½ → 8 ms at full size: fits with room.
        drag(&g, ms: [2, 2, 2, 2])
        XCTAssertEqual(g.due, 1)
        // Still dragging: nothing changes until the gesture ends.
        XCTAssertEqual(g.scale, 0.5)
        XCTAssertEqual(g.betweenGestures()?.to, 1)
        XCTAssertEqual(g.scale, 1)
    }

    func testADecisionFollowsTheLatestFrames() {
        var g = RenderScaleGovernor(refreshRate: 60, window: 4)
        drag(&g, ms: [30, 30, 30, 30])
        XCTAssertEqual(g.due, 0.5)
        // The drag got cheap again before it ended (a lighter part of the scene): no switch.
        drag(&g, ms: [8, 8, 8, 8])
        XCTAssertNil(g.due)
        XCTAssertNil(g.betweenGestures())
    }
}
