import XCTest
@testable import CarouselCore

/// Gesture math: slop, axis lock, perpendicular swipes, taps, the dial's unwrapped angle, the
/// velocity fit, cancel mid-drag, knob detents.
final class GestureRecognizerTests: XCTestCase {
    func recognizer(vertical: Bool = false, _ configure: (inout GestureOptions) -> Void = { _ in }) -> GestureRecognizer {
        var o = GestureOptions()
        configure(&o)
        return GestureRecognizer(options: o, vertical: vertical)
    }

    /// Nothing moves inside the slop; the pan starts at 10 px without replaying the slop, then
    /// reports exact deltas along x only (axis lock).
    func testSlopAndAxisLock() {
        let g = recognizer()
        XCTAssertEqual(g.handle(.touchDown(slot: 0, x: 100, y: 100), now: 0), [.fingerDown(Point2(100, 100))])
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 105, y: 101), now: 0.01), [])
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 110, y: 102), now: 0.02), [.dragBegan])
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 130, y: 140), now: 0.03), [.dragMoved(pixels: 20)])
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 130, y: 90), now: 0.04), [])
        // A second finger is ignored.
        XCTAssertEqual(g.handle(.touchDown(slot: 1, x: 500, y: 500), now: 0.05), [])
        XCTAssertEqual(g.handle(.touchMotion(slot: 1, x: 600, y: 500), now: 0.06), [])
        guard case .dragEnded = g.handle(.touchUp(slot: 0), now: 0.07).first else { return XCTFail() }
        XCTAssertEqual(g.handle(.touchUp(slot: 1), now: 0.08), [])
    }

    /// A mostly perpendicular swipe does not pan (ignore_perpendicular_swipes) and ends as a plain
    /// finger-up; with the option off it pans along the axis.
    func testPerpendicularSwipes() {
        let g = recognizer()
        _ = g.handle(.touchDown(slot: 0, x: 100, y: 100), now: 0)
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 104, y: 130), now: 0.02), [])
        XCTAssertEqual(g.handle(.touchMotion(slot: 0, x: 200, y: 130), now: 0.04), [])
        XCTAssertEqual(g.handle(.touchUp(slot: 0), now: 0.05), [.fingerUp])
        let free = recognizer { $0.ignorePerpendicularSwipes = false }
        _ = free.handle(.touchDown(slot: 0, x: 100, y: 100), now: 0)
        XCTAssertEqual(free.handle(.touchMotion(slot: 0, x: 104, y: 130), now: 0.02), [.dragBegan])
        // Vertical carousel: y is the axis.
        let v = recognizer(vertical: true)
        _ = v.handle(.touchDown(slot: 0, x: 100, y: 100), now: 0)
        XCTAssertEqual(v.handle(.touchMotion(slot: 0, x: 101, y: 115), now: 0.02), [.dragBegan])
        XCTAssertEqual(v.handle(.touchMotion(slot: 0, x: 140, y: 125), now: 0.03), [.dragMoved(pixels: 10)])
    }

    /// Taps: within 12 px and 0.35 s (and never once the slop made it a pan).
    func testTapLimits() {
        let g = recognizer()
        _ = g.handle(.touchDown(slot: 0, x: 300, y: 200), now: 0)
        _ = g.handle(.touchMotion(slot: 0, x: 305, y: 204), now: 0.1)
        XCTAssertEqual(g.handle(.touchUp(slot: 0), now: 0.3), [.tap(Point2(300, 200))])
        _ = g.handle(.touchDown(slot: 0, x: 300, y: 200), now: 1)
        XCTAssertEqual(g.handle(.touchUp(slot: 0), now: 1.5), [.fingerUp])   // too long
        let loose = recognizer { $0.panSlop = 30; $0.tapMaxMovement = 12 }
        _ = loose.handle(.touchDown(slot: 0, x: 300, y: 200), now: 0)
        _ = loose.handle(.touchMotion(slot: 0, x: 320, y: 200), now: 0.1)
        XCTAssertEqual(loose.handle(.touchUp(slot: 0), now: 0.2), [.fingerUp])   // moved too far for a tap
        // The pointer button acts as a finger.
        let p = recognizer()
        _ = p.handle(.pointerMotion(x: 50, y: 60), now: 0)
        XCTAssertEqual(p.handle(.pointerButton(pressed: true), now: 0.1), [.fingerDown(Point2(50, 60))])
        XCTAssertEqual(p.handle(.pointerButton(pressed: false), now: 0.2), [.tap(Point2(50, 60))])
    }

    /// The least-squares velocity over the last 100 ms: exact on a straight line, robust to one
    /// jittery sample, blind to what happened before the window.
    func testVelocityFit() {
        var v = VelocityTracker(window: 0.1)
        for k in 0...30 { let t = Double(k) / 120; v.add(time: t, position: 1000 * t) }
        XCTAssertEqual(v.velocity(at: 0.25), 1000, accuracy: 1e-6)
        // Slow for 200 ms, then fast for 100 ms: only the fast part counts.
        var w = VelocityTracker(window: 0.1)
        var x = 0.0
        for k in 0...24 { w.add(time: Double(k) / 120, position: x); x += 1 }
        for k in 25...36 { x += 20; w.add(time: Double(k) / 120, position: x) }
        XCTAssertEqual(w.velocity(at: 36.0 / 120), 2400, accuracy: 5)   // the oldest sample in the window lies 1 px off the fast line
        // One sample 5 px off moves the fit by far less than the last-sample estimate would.
        var j = VelocityTracker(window: 0.1)
        for k in 0...12 { let t = Double(k) / 120; j.add(time: t, position: 1000 * t + (k == 12 ? 5 : 0)) }
        let lastSample = (1000.0 / 120 + 5) * 120
        XCTAssertLessThan(abs(j.velocity(at: 0.1) - 1000), abs(lastSample - 1000) / 3)
        // A finger that stopped before release has no velocity.
        XCTAssertEqual(v.velocity(at: 1.0), 0)
        // Release velocity through the recognizer: 1200 px/s to the left.
        let g = recognizer()
        _ = g.handle(.touchDown(slot: 0, x: 1000, y: 300), now: 0)
        var out: [Intent] = []
        for k in 1...20 { out = g.handle(.touchMotion(slot: 0, x: 1000 - 10 * Double(k), y: 300), now: Double(k) / 120) }
        XCTAssertEqual(out, [.dragMoved(pixels: -10)])
        guard case .dragEnded(let vel)? = g.handle(.touchUp(slot: 0), now: 20.0 / 120).first else { return XCTFail() }
        XCTAssertEqual(vel, -1200, accuracy: 1e-6)
    }

    /// The dial: atan2 unwrapped across ±π, so five clockwise turns are five turns' worth of items;
    /// back again returns to zero; release keeps the angular velocity.
    func testDialUnwrapManyTurns() {
        let dial = DialOptions(center: Point2(640, 360), innerRadius: 100, outerRadius: 300, itemsPerTurn: 8)
        let g = recognizer { $0.dial = dial }
        func at(_ a: Double) -> Point2 { Point2(640 + 200 * cos(a), 360 + 200 * sin(a)) }
        // Start just above the −x axis (angle ≈ π), so the ±π seam is crossed at once and every turn.
        var a = Double.pi - 0.05
        let start = at(a)
        _ = g.handle(.touchDown(slot: 0, x: start.x, y: start.y), now: 0)
        var items = 0.0, t = 0.0, began = false
        let steps = 5 * 72
        for _ in 0..<steps {
            a += 2 * Double.pi / 72; t += 1.0 / 120
            let p = at(a)
            for i in g.handle(.touchMotion(slot: 0, x: p.x, y: p.y), now: t) {
                if case .dialMoved(let n) = i { items += n }
                if i == .dragBegan { began = true }
            }
        }
        XCTAssertTrue(began)
        // The first step (5°) only crossed the slop: 5 turns minus one step.
        XCTAssertEqual(items, 8 * (5 - 1.0 / 72), accuracy: 1e-9)
        guard case .dialEnded(let v)? = g.handle(.touchUp(slot: 0), now: t).first else { return XCTFail() }
        XCTAssertEqual(v, 8 * 120.0 / 72, accuracy: 1e-6)   // 1/72 turn per tick at 120 Hz
        // Unwrapper alone: crossing +π to −π is a small positive step.
        var u = AngleUnwrapper(start: Double.pi - 0.1)
        XCTAssertEqual(u.update(-Double.pi + 0.1), 0.2, accuracy: 1e-12)
        for k in 1...1000 { _ = u.update(remainder(Double.pi + 0.1 - 0.2 * Double(k), 2 * Double.pi)) }   // 1000 steps of −0.2 back
        XCTAssertEqual(u.total, 0.2 - 200, accuracy: 1e-9)
        // Touches off the ring pan as usual.
        let off = g.isOnDial(Point2(640, 360))
        XCTAssertFalse(off)
    }

    /// A cancelled drag ends with no velocity; the engine settles on an item and pairs its events.
    func testCancelMidDrag() {
        let g = recognizer()
        let e = CarouselEngine(options: options(.linear, itemSize: Size2(400, 300)), itemCount: 10)
        var t = 0.0
        func feed(_ ev: InputEvent) { for i in g.handle(ev, now: t) { e.apply(i, now: t) }; e.tick(now: t) }
        feed(.touchDown(slot: 0, x: 800, y: 300))
        for k in 1...30 { t = Double(k) / 120; feed(.touchMotion(slot: 0, x: 800 - 12 * Double(k), y: 300)) }
        t += 1.0 / 120
        feed(.touchCancel(slot: 0))
        XCTAssertFalse(e.isDragging)
        tickAt120Hz(e, from: t, to: t + 1)
        XCTAssertEqual(e.scrollOffset, e.scrollOffset.rounded())
        XCTAssertEqual(e.currentIndex, 1)
        XCTAssertEqual(names(e.takeEvents()), ["drag_began", "index1", "drag_ended", "scroll_animation_began", "scroll_animation_ended"])
        XCTAssertFalse(g.isTracking)
    }

    /// Knob detents: detents_per_item 3 keeps partial detents (both ways); acceleration adds items
    /// per detent when detents come fast.
    func testRotaryDetents() {
        let g = recognizer { $0.detentsPerItem = 3 }
        XCTAssertEqual(g.handle(.rotary(delta: 1), now: 0), [])
        XCTAssertEqual(g.handle(.rotary(delta: 1), now: 1), [])
        XCTAssertEqual(g.handle(.rotary(delta: 1), now: 2), [.step(1)])
        XCTAssertEqual(g.handle(.rotary(delta: 2), now: 3), [])
        XCTAssertEqual(g.handle(.rotary(delta: -2), now: 4), [])
        XCTAssertEqual(g.handle(.rotary(delta: 7), now: 5), [.step(2)])
        XCTAssertEqual(g.handle(.rotary(delta: 2), now: 6), [.step(1)])
        let fast = recognizer { $0.rotaryAcceleration = 1; $0.rotaryFastInterval = 0.05 }
        XCTAssertEqual(fast.handle(.rotary(delta: 1), now: 0), [.step(1)])       // first detent: not fast
        XCTAssertEqual(fast.handle(.rotary(delta: 1), now: 0.02), [.step(2)])    // fast: 1 + 1 extra
        XCTAssertEqual(fast.handle(.rotary(delta: -1), now: 0.5), [.step(-1)])   // slow again
        // Keys and wheel.
        XCTAssertEqual(fast.handle(.keyDown(.right), now: 1), [.step(1)])
        XCTAssertEqual(fast.handle(.keyDown(.enter), now: 1), [.select])
        XCTAssertEqual(fast.handle(.pointerAxis(delta: 0.5), now: 1), [])
        XCTAssertEqual(fast.handle(.pointerAxis(delta: 0.5), now: 1.1), [.step(1)])
    }
}
