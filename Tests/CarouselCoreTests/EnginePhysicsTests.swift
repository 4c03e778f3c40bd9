import XCTest
@testable import CarouselCore

/// Physics and events: drags, flings, bounces, paging, animations, autoscroll, taps, selection,
/// coverflow2's toggle, insertion and removal, the fixed tick.
final class EnginePhysicsTests: XCTestCase {
    let view = Size2(1280, 720)

    func engine(_ type: CarouselType = .linear, count: Int = 20, at offset: Double = 5,
                _ configure: (inout CarouselOptions) -> Void = { _ in }) -> CarouselEngine {
        let e = CarouselEngine(options: options(type, itemSize: Size2(400, 300), configure), itemCount: count, viewSize: view)
        e.setScrollOffset(offset, now: 0)
        _ = e.takeEvents()
        return e
    }

    /// Drag 40 px left (0.1 item), release at 2400 px/s: v = 6 items/s, glide v/(60·(1 − 0.95)) = 2 items
    /// → 7.1, stop_at_item_boundary rounds up to 8; duration |2.9| / |0.5·6| = 0.9667 s.
    func testFlingDistanceAndEventOrder() {
        let e = engine()
        e.apply(.fingerDown(Point2(640, 360)), now: 0.1)
        e.apply(.dragBegan, now: 0.1)
        e.apply(.dragMoved(pixels: -40), now: 0.11)
        XCTAssertEqual(e.scrollOffset, 5.1, accuracy: 1e-12)
        e.apply(.dragEnded(velocity: -2400), now: 0.12)
        guard case .decelerating(let g) = e.motion else { return XCTFail("not gliding") }
        XCTAssertEqual(g.distance, 2.9, accuracy: 1e-12)
        XCTAssertEqual(g.duration, 2.9 / 3, accuracy: 1e-12)
        // Mid-glide position follows d(τ) = v·τ − v·τ²/(2T).
        tickAt120Hz(e, from: 0.12, to: 0.5)
        let tau = 0.5 - 0.12, v = 6.0, T = 2.9 / 3
        XCTAssertEqual(e.scrollOffset, 5.1 + v * tau - v * tau * tau / (2 * T), accuracy: 1e-9)
        tickAt120Hz(e, from: 0.5, to: 2)
        XCTAssertEqual(e.scrollOffset, 8)
        XCTAssertFalse(e.isMoving)
        XCTAssertEqual(names(e.takeEvents()), ["drag_began", "drag_ended", "deceleration_began", "index6", "index7", "index8",
                                               "deceleration_ended"])
    }

    /// Without stop_at_item_boundary the glide ends at 7.1 and scroll_to_item_boundary snaps to 7.
    func testGlideThenSnap() {
        let e = engine { $0.stopAtItemBoundary = false }
        e.apply(.dragBegan, now: 0.1)
        e.apply(.dragMoved(pixels: -40), now: 0.11)
        e.apply(.dragEnded(velocity: -2400), now: 0.12)
        tickAt120Hz(e, from: 0.12, to: 3)
        XCTAssertEqual(e.scrollOffset, 7)
        XCTAssertEqual(names(e.takeEvents()), ["drag_began", "drag_ended", "deceleration_began", "index6", "index7",
                                               "deceleration_ended", "scroll_animation_began", "scroll_animation_ended"])
    }

    /// With neither boundary option the carousel rests where the glide ends.
    func testGlideWithoutBoundaries() {
        let e = engine { $0.stopAtItemBoundary = false; $0.scrollToItemBoundary = false }
        e.apply(.dragBegan, now: 0.1)
        e.apply(.dragMoved(pixels: -40), now: 0.11)
        e.apply(.dragEnded(velocity: -2400), now: 0.12)
        tickAt120Hz(e, from: 0.12, to: 3)
        XCTAssertEqual(e.scrollOffset, 7.1, accuracy: 1e-9)
    }

    /// Past the first item the drag weakens (factor 1 − overshoot / bounce_distance), stops at
    /// −bounce_distance and springs back on release.
    func testBounceAtStart() {
        let e = engine(count: 5, at: 0)
        e.apply(.dragBegan, now: 0.1)
        e.apply(.dragMoved(pixels: 200), now: 0.11)
        XCTAssertEqual(e.scrollOffset, -0.5, accuracy: 1e-12)
        e.apply(.dragMoved(pixels: 200), now: 0.12)   // factor 0.5 → −0.75
        XCTAssertEqual(e.scrollOffset, -0.75, accuracy: 1e-12)
        for k in 0..<50 { e.apply(.dragMoved(pixels: 400), now: 0.13 + Double(k) * 0.001) }
        XCTAssertGreaterThanOrEqual(e.scrollOffset, -1)
        e.apply(.dragEnded(velocity: 0), now: 0.2)
        tickAt120Hz(e, from: 0.2, to: 1)
        XCTAssertEqual(e.scrollOffset, 0)
        XCTAssertEqual(names(e.takeEvents()), ["drag_began", "drag_ended", "scroll_animation_began", "scroll_animation_ended"])
    }

    /// bounces = false: the drag stops dead at the end.
    func testNoBounce() {
        let e = engine(count: 5, at: 0) { $0.bounces = false }
        e.apply(.dragBegan, now: 0.1)
        e.apply(.dragMoved(pixels: 300), now: 0.11)
        XCTAssertEqual(e.scrollOffset, 0)
    }

    /// A fling past the last item glides at most bounce_distance beyond it, then comes back.
    func testFlingPastEndBouncesBack() {
        let e = engine(count: 5, at: 3)
        e.apply(.dragBegan, now: 0)
        e.apply(.dragMoved(pixels: -100), now: 0.01)
        e.apply(.dragEnded(velocity: -20000), now: 0.02)
        var maxOffset = 0.0
        var t = 0.02
        while t < 3 { t += 1.0 / 120; e.tick(now: t); maxOffset = max(maxOffset, e.scrollOffset) }
        XCTAssertLessThanOrEqual(maxOffset, 5)
        XCTAssertGreaterThan(maxOffset, 4)
        XCTAssertEqual(e.scrollOffset, 4)
        XCTAssertEqual(e.currentIndex, 4)
    }

    /// Paging: a swipe moves at most one item from where it started, however far or fast.
    func testPagingAtMostOneItemPerSwipe() {
        let e = engine(count: 10, at: 3) { $0.paging = true }
        e.apply(.dragBegan, now: 0)
        e.apply(.dragMoved(pixels: -600), now: 0.01)
        XCTAssertEqual(e.scrollOffset, 4)
        e.apply(.dragEnded(velocity: -50000), now: 0.02)
        tickAt120Hz(e, from: 0.02, to: 2)
        XCTAssertEqual(e.scrollOffset, 4)
        // A short quick flick goes exactly one on.
        e.apply(.dragBegan, now: 2)
        e.apply(.dragMoved(pixels: -100), now: 2.01)
        e.apply(.dragEnded(velocity: -4000), now: 2.02)
        tickAt120Hz(e, from: 2.02, to: 4)
        XCTAssertEqual(e.scrollOffset, 5)
        // A slow release past half way settles on the neighbour, never further.
        e.apply(.dragBegan, now: 4)
        e.apply(.dragMoved(pixels: 250), now: 4.01)
        e.apply(.dragEnded(velocity: 0), now: 4.5)
        tickAt120Hz(e, from: 4.5, to: 6)
        XCTAssertEqual(e.scrollOffset, 4)
    }

    /// scroll_to goes the shortest way round a wrapping ring: from 1 to 9 of 10 through 0.
    func testScrollToShortestWayRound() {
        let e = engine(.rotary, count: 10, at: 1)
        e.apply(.scrollTo(index: 9, duration: nil), now: 0)
        var t = 0.0
        while t < 1 {
            t += 1.0 / 120; e.tick(now: t)
            XCTAssertTrue(e.scrollOffset <= 1 + 1e-9 || e.scrollOffset >= 9 - 1e-9, "went the long way: \(e.scrollOffset)")
        }
        XCTAssertEqual(e.scrollOffset, 9, accuracy: 1e-12)
        XCTAssertEqual(names(e.takeEvents()), ["scroll_animation_began", "index0", "index9", "scroll_animation_ended"])
    }

    /// iCarousel's easeInOut over scroll_duration 0.4 s: p = 0.25 → 0.0625, 0.5 → 0.5, 0.75 → 0.9375.
    func testEaseInOutTiming() {
        let e = engine(count: 10, at: 0)
        e.apply(.scrollBy(items: 2, duration: nil), now: 0)
        e.tick(now: 0.1); XCTAssertEqual(e.scrollOffset, 0.125, accuracy: 1e-9)
        e.tick(now: 0.2); XCTAssertEqual(e.scrollOffset, 1.0, accuracy: 1e-9)
        e.tick(now: 0.3); XCTAssertEqual(e.scrollOffset, 1.875, accuracy: 1e-9)
        e.tick(now: 0.4); XCTAssertEqual(e.scrollOffset, 2)
        XCTAssertFalse(e.isMoving)
    }

    /// scroll_by whole items lands on boundaries (floor/ceil first, as scrollByNumberOfItems).
    func testScrollByFromFractionalOffset() {
        let e = engine(count: 10, at: 2.4) { $0.scrollToItemBoundary = false }
        e.apply(.scrollBy(items: 3, duration: 0.2), now: 0)
        tickAt120Hz(e, from: 0, to: 1)
        XCTAssertEqual(e.scrollOffset, 5)
        e.setScrollOffset(2.4, now: 1)
        e.apply(.scrollBy(items: -1, duration: 0.2), now: 1)
        tickAt120Hz(e, from: 1, to: 2)
        XCTAssertEqual(e.scrollOffset, 2)
        e.apply(.scrollBy(items: 0.5, duration: 0), now: 2)
        XCTAssertEqual(e.scrollOffset, 2.5)
    }

    /// Knob steps add up: three quick steps make one animation to +3.
    func testStepsAccumulate() {
        let e = engine(count: 10, at: 0)
        e.apply(.step(1), now: 0)
        e.tick(now: 0.05)
        e.apply(.step(1), now: 0.05)
        e.tick(now: 0.1)
        e.apply(.step(1), now: 0.1)
        tickAt120Hz(e, from: 0.1, to: 1)
        XCTAssertEqual(e.scrollOffset, 3)
        let ev = names(e.takeEvents())
        XCTAssertEqual(ev.filter { $0 == "scroll_animation_began" }.count, 1)
        XCTAssertEqual(ev.filter { $0 == "scroll_animation_ended" }.count, 1)
        // Stepping past the end of a non-wrapping strip does nothing.
        e.setScrollOffset(9, now: 1)
        _ = e.takeEvents()
        e.apply(.step(1), now: 1)
        XCTAssertFalse(e.isMoving)
        XCTAssertTrue(e.takeEvents().isEmpty)
    }

    /// Select during an animation picks the item it is heading for.
    func testSelectPicksTarget() {
        let e = engine(count: 10, at: 0)
        e.apply(.step(3), now: 0)
        e.tick(now: 0.1)
        e.apply(.select, now: 0.1)
        XCTAssertEqual(e.takeEvents().last?.event, .selected(index: 3))
    }

    /// Autoscroll moves `autoscroll` items per second on the fixed tick, pauses while a finger is
    /// down and resumes after.
    func testAutoscroll() {
        let e = engine(.rotary, count: 4, at: 0) { $0.autoscroll = 0.5 }
        tickAt120Hz(e, from: 0, to: 1)
        XCTAssertEqual(e.scrollOffset, 0.5, accuracy: 1e-9)
        e.apply(.fingerDown(Point2(0, 0)), now: 1)
        tickAt120Hz(e, from: 1, to: 2)
        XCTAssertEqual(e.scrollOffset, 0.5, accuracy: 1e-9)
        e.apply(.fingerUp, now: 2)
        tickAt120Hz(e, from: 2, to: 3)
        XCTAssertEqual(e.scrollOffset, 1.0, accuracy: 1e-9)
        // A non-wrapping strip stops at its last item.
        let s = engine(count: 3, at: 0) { $0.autoscroll = 10 }
        tickAt120Hz(s, from: 0, to: 1)
        XCTAssertEqual(s.scrollOffset, 2)
        XCTAssertFalse(s.isMoving)
    }

    /// Tap: a side item scrolls to the centre (no selection); the centred item is selected.
    func testTapCentresThenSelects() {
        let e = engine(.coverflow, count: 10, at: 5)
        let poses = e.layout(viewSize: view)
        let six = poses.first { $0.index == 6 }!, five = poses.first { $0.index == 5 }!
        let edge = Point2((six.corners[1].x + six.corners[2].x) / 2 - 3, (six.corners[1].y + six.corners[2].y) / 2)
        XCTAssertFalse(CarouselEngine.quad(five.corners, contains: edge))
        XCTAssertEqual(e.itemIndex(at: edge, viewSize: view), 6)
        e.apply(.tap(edge), now: 0.1)
        tickAt120Hz(e, from: 0.1, to: 1)
        XCTAssertEqual(e.currentIndex, 6)
        XCTAssertEqual(names(e.takeEvents()), ["scroll_animation_began", "index6", "scroll_animation_ended"])
        e.apply(.tap(Point2(640, 360)), now: 1)
        XCTAssertEqual(names(e.takeEvents()), ["selected6"])
        // A tap on nothing selects nothing.
        e.apply(.tap(Point2(5, 5)), now: 1.1)
        XCTAssertTrue(e.takeEvents().isEmpty)
        // center_item_when_selected = false selects side items where they are.
        e.update(options: options(.coverflow, itemSize: Size2(400, 300)) { $0.centerItemWhenSelected = false }, itemCount: 10, now: 1.2)
        let seven = e.layout(viewSize: view).first { $0.index == 7 }!
        let p7 = Point2((seven.corners[1].x + seven.corners[2].x) / 2 - 2, (seven.corners[1].y + seven.corners[2].y) / 2)
        if e.itemIndex(at: p7, viewSize: view) == 7 {
            e.apply(.tap(p7), now: 1.3)
            XCTAssertEqual(names(e.takeEvents()), ["selected7"])
        } else {
            XCTFail("item 7's outer edge is covered")
        }
    }

    /// Hit testing is front-most first: where the centre item overlaps a neighbour, the centre wins.
    func testHitTestFrontMost() {
        let e = engine(.coverflow, count: 10, at: 5)
        let poses = e.layout(viewSize: view)
        let five = poses.first { $0.index == 5 }!
        let six = poses.first { $0.index == 6 }!
        let p = Point2(five.corners[1].x - 2, 360)
        XCTAssertTrue(CarouselEngine.quad(six.corners, contains: p))
        XCTAssertEqual(e.itemIndex(at: p, viewSize: view), 5)
    }

    /// A finger landing during a glide stops it (events end); lifting settles on a boundary.
    func testFingerDownStopsGlide() {
        let e = engine()
        e.apply(.dragBegan, now: 0)
        e.apply(.dragMoved(pixels: -40), now: 0.01)
        e.apply(.dragEnded(velocity: -4000), now: 0.02)
        tickAt120Hz(e, from: 0.02, to: 0.2)
        e.apply(.fingerDown(Point2(100, 100)), now: 0.2)
        let held = e.scrollOffset
        tickAt120Hz(e, from: 0.2, to: 0.5)
        XCTAssertEqual(e.scrollOffset, held)
        e.apply(.fingerUp, now: 0.5)
        tickAt120Hz(e, from: 0.5, to: 1.5)
        XCTAssertEqual(e.scrollOffset, e.scrollOffset.rounded())
        let ev = names(e.takeEvents())
        XCTAssertEqual(ev.filter { $0 == "deceleration_began" }.count, ev.filter { $0 == "deceleration_ended" }.count)
    }

    /// coverflow2: on a slow drag the toggle jumps to ∓1 when the index changes and eases to 0
    /// within the toggle duration; while gliding it follows the fractional offset.
    func testCoverFlow2Toggle() {
        let e = engine(.coverflow2, count: 10, at: 5)
        e.apply(.dragBegan, now: 0)
        var t = 0.0, sawChange = false
        while e.currentIndex == 5 {
            t += 1.0 / 120
            e.apply(.dragMoved(pixels: -2), now: t)   // 2 px · 2 (offset multiplier) / 400 = 0.01 item per tick
        }
        sawChange = true
        XCTAssertEqual(e.toggle, -1, accuracy: 1e-12)
        for _ in 0..<60 { t += 1.0 / 120; e.apply(.dragMoved(pixels: -2), now: t) }
        XCTAssertEqual(e.toggle, 0, accuracy: 1e-12)
        XCTAssertTrue(sawChange)
        e.apply(.dragEnded(velocity: -8000), now: t)
        tickAt120Hz(e, from: t, to: t + 0.2)
        XCTAssertTrue(e.isDecelerating)
        XCTAssertEqual(e.toggle, e.scrollOffset - e.scrollOffset.rounded(), accuracy: 1e-12)
    }

    /// Inserting before the centred item keeps it centred: nothing on screen jumps at the moment of
    /// insertion; the items on the left slide one slot over 0.4 s and the new item fades in.
    func testInsertWithoutJump() {
        let e = engine(count: 5, at: 2)
        let before = Dictionary(uniqueKeysWithValues: e.layout(viewSize: view).map { ($0.index, $0.corners) })
        e.insertItem(at: 2, now: 1)
        XCTAssertEqual(e.itemCount, 6)
        XCTAssertEqual(e.currentIndex, 3)
        XCTAssertEqual(e.scrollOffset, 3)
        XCTAssertEqual(names(e.takeEvents()), ["index3"])
        let after = e.layout(viewSize: view)
        // Old item i is new item i (< 2) or i + 1 (≥ 2): each sits where it was.
        for pose in after where pose.index != 2 {
            let old = pose.index < 2 ? pose.index : pose.index - 1
            if let c = before[old] { XCTAssertEqual(pose.corners[0].x, c[0].x, accuracy: 1e-9, "item \(old)") }
        }
        XCTAssertNil(after.first { $0.index == 2 }, "the new item starts transparent")
        tickAt120Hz(e, from: 1, to: 1.5)
        let settled = e.layout(viewSize: view)
        XCTAssertEqual(settled.first { $0.index == 1 }!.offset, -2, accuracy: 1e-12)
        XCTAssertEqual(settled.first { $0.index == 2 }!.alpha, 1)
        XCTAssertFalse(e.isMoving)
    }

    /// On a wrapping ring the items are followed round the ring: inserting at 2 while 8 of 10 is
    /// centred moves nothing at that moment (items 9, 0, 1 ahead and 7…3 behind keep their places;
    /// old 2…7 are renumbered 3…8), and afterwards only the items ahead of the new one move on.
    func testInsertOnWrappingRingWithoutJump() {
        let e = engine(.rotary, count: 10, at: 8)
        let before = Dictionary(uniqueKeysWithValues: e.layout(viewSize: view).map { ($0.index, $0.corners) })
        e.insertItem(at: 2, now: 1)
        XCTAssertEqual(e.currentIndex, 9)
        for pose in e.layout(viewSize: view) where pose.index != 2 {
            let old = pose.index < 2 ? pose.index : pose.index - 1
            guard let c = before[old] else { continue }
            for (a, b) in zip(pose.corners, c) {
                XCTAssertEqual(a.x, b.x, accuracy: 1e-6, "item \(old)")
                XCTAssertEqual(a.y, b.y, accuracy: 1e-6, "item \(old)")
            }
        }
        tickAt120Hz(e, from: 1, to: 1.5)
        let settled = e.layout(viewSize: view)
        XCTAssertEqual(settled.first { $0.index == 0 }!.offset, 2, accuracy: 1e-12)   // 9 is centred: 10, 0, 1 ahead
        XCTAssertEqual(settled.first { $0.index == 3 }!.offset, 5, accuracy: 1e-12)   // old 2 moved one slot on
        XCTAssertEqual(settled.first { $0.index == 8 }!.offset, -1, accuracy: 1e-12)  // old 7 stayed behind
        XCTAssertFalse(e.isMoving)
    }

    /// Removing the centred item: its successor slides into the gap.
    func testRemoveWithoutJump() {
        let e = engine(count: 5, at: 2)
        let before = Dictionary(uniqueKeysWithValues: e.layout(viewSize: view).map { ($0.index, $0.corners) })
        e.removeItem(at: 2, now: 1)
        XCTAssertEqual(e.itemCount, 4)
        XCTAssertEqual(e.currentIndex, 2)
        XCTAssertEqual(names(e.takeEvents()), ["index2"])
        for pose in e.layout(viewSize: view) {
            let old = pose.index < 2 ? pose.index : pose.index + 1
            XCTAssertEqual(pose.corners[0].x, before[old]![0].x, accuracy: 1e-9, "item \(old)")
        }
        tickAt120Hz(e, from: 1, to: 1.5)
        XCTAssertEqual(e.layout(viewSize: view).first { $0.index == 2 }!.offset, 0, accuracy: 1e-12)
        // Removing items before the centre keeps the centred item.
        e.removeItem(at: 0, now: 2)
        XCTAssertEqual(e.currentIndex, 1)
        XCTAssertEqual(e.scrollOffset, 1)
        e.removeItem(at: 7, now: 2)   // out of range: ignored
        XCTAssertEqual(e.itemCount, 3)
    }

    /// Reloading with a different item count keeps the current item when it still exists.
    func testUpdateKeepsCurrentItem() {
        let e = engine(count: 10, at: 3)
        e.update(options: e.options, itemCount: 12, now: 1)
        XCTAssertEqual(e.scrollOffset, 3)
        XCTAssertTrue(e.takeEvents().isEmpty)
        e.update(options: e.options, itemCount: 2, now: 2)
        XCTAssertEqual(e.currentIndex, 1)
        XCTAssertEqual(names(e.takeEvents()), ["index1"])
        e.update(options: e.options, itemCount: 0, now: 3)
        XCTAssertTrue(e.layout(viewSize: view).isEmpty)
    }

    /// The physics advance on the fixed tick only: ticking at odd times gives the same states and
    /// event times as ticking every 1/120 s.
    func testFixedTickDeterminism() {
        let a = engine(), b = engine()
        for e in [a, b] {
            e.apply(.dragBegan, now: 0)
            e.apply(.dragMoved(pixels: -100), now: 1.0 / 120)
            e.apply(.dragEnded(velocity: -3000), now: 2.0 / 120)
        }
        tickAt120Hz(a, from: 2.0 / 120, to: 2)
        for t in [0.013, 0.3, 0.30001, 0.77, 1.5, 2.0] { b.tick(now: t) }
        XCTAssertEqual(a.scrollOffset, b.scrollOffset)
        XCTAssertEqual(a.takeEvents(), b.takeEvents())
    }

    /// With no items everything is a no-op.
    func testEmptyCarousel() {
        let e = CarouselEngine(options: CarouselOptions(), itemCount: 0)
        for i: Intent in [.dragBegan, .dragMoved(pixels: 5), .dragEnded(velocity: 100), .tap(Point2(1, 1)), .step(1), .select, .home] {
            e.apply(i, now: 0)
        }
        e.tick(now: 1)
        XCTAssertTrue(e.takeEvents().isEmpty)
        XCTAssertEqual(e.scrollOffset, 0)
        XCTAssertTrue(e.layout(viewSize: view).isEmpty)
    }
}
