import Foundation
import TestSupport
import XCTest
@testable import CarouselCore

/// Random gesture/tick sequences through the gesture recognizer into the engine, with random
/// options: every number stays finite, the current index in range, every began event gets its
/// ended event, and a released carousel comes to rest on an item boundary when it should.
///
/// 10⁴ sequences by default; `KIOSK_LONG_TESTS=1` runs 10⁶ (docs/physics.md has the timing).
final class PropertyTests: XCTestCase {
    static var sequenceCount: Int {
        ProcessInfo.processInfo.environment["KIOSK_LONG_TESTS"] == "1" ? 1_000_000 : 10_000
    }

    func testRandomGestureSequences() {
        var rng = SplitMix64(seed: 0x5EED_CA20_05E1)
        let count = Self.sequenceCount
        let started = Date()
        var failures = 0
        for sequence in 0..<count {
            if let problem = runSequence(&rng, sequenceIndex: sequence) {
                failures += 1
                XCTFail("sequence \(sequence): \(problem)")
                if failures > 10 { break }
            }
        }
        print("PropertyTests: \(count) sequences in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// Runs one random sequence; returns a description of the first broken property.
    func runSequence(_ rng: inout SplitMix64, sequenceIndex: Int = -1) -> String? {
        var o = CarouselOptions()
        o.type = CarouselType.allCases.randomElement(using: &rng)!
        o.vertical = Bool.random(using: &rng)
        o.itemSize = Size2(Double.random(in: 50...600, using: &rng), Double.random(in: 50...600, using: &rng))
        o.wrap = [nil, true, false].randomElement(using: &rng)!
        o.paging = Int.random(in: 0..<4, using: &rng) == 0
        o.bounces = Int.random(in: 0..<5, using: &rng) != 0
        o.bounceDistance = Double.random(in: 0...2, using: &rng)
        o.stopAtItemBoundary = Bool.random(using: &rng)
        o.scrollToItemBoundary = Int.random(in: 0..<4, using: &rng) != 0
        o.decelerationRate = Double.random(in: 0.5...0.99, using: &rng)
        o.scrollSpeed = Double.random(in: 0.5...2, using: &rng)
        o.autoscroll = Int.random(in: 0..<8, using: &rng) == 0 ? Double.random(in: -2...2, using: &rng) : 0
        o.scrollDuration = Double.random(in: 0...0.6, using: &rng)
        if Bool.random(using: &rng) { o.offsetMultiplier = Double.random(in: 0.5...3, using: &rng) }
        if Int.random(in: 0..<4, using: &rng) == 0 { o.visibleItems = Int.random(in: 0...40, using: &rng) }
        if Int.random(in: 0..<4, using: &rng) == 0 { o.spacing = Double.random(in: 0.1...2, using: &rng) }
        o.centerItemWhenSelected = Int.random(in: 0..<4, using: &rng) != 0
        if o.type == .custom, Bool.random(using: &rng) {
            o.keyframes = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                PathKeyframe(offset: Double.random(in: -3...3, using: &rng),
                             translate: (Double.random(in: -500...500, using: &rng), Double.random(in: -300...300, using: &rng), Double.random(in: -400...100, using: &rng)),
                             rotate: (Double.random(in: -90...90, using: &rng), Double.random(in: -90...90, using: &rng), 0),
                             scale: Double.random(in: 0.2...1.5, using: &rng), alpha: Double.random(in: 0...1, using: &rng))
            }
        }
        var g = GestureOptions()
        g.detentsPerItem = Int.random(in: 1...4, using: &rng)
        g.rotaryAcceleration = Bool.random(using: &rng) ? 0 : Double.random(in: 0...2, using: &rng)
        let view = Size2(Double.random(in: 320...1920, using: &rng), Double.random(in: 240...1080, using: &rng))
        if Bool.random(using: &rng) {
            g.dial = DialOptions(center: Point2(view.width / 2, view.height / 2), innerRadius: 50, outerRadius: 250,
                                 itemsPerTurn: Double.random(in: -12...12, using: &rng))
        }
        var n = Int.random(in: 0..<10, using: &rng) == 0 ? 1_000_000 : Int.random(in: 1...40, using: &rng)
        let engine = CarouselEngine(options: o, itemCount: n, viewSize: view)
        let gestures = GestureRecognizer(options: g, vertical: o.vertical)
        var t = 0.0
        // Start on an item: a carousel nobody touched has no reason to move.
        engine.setScrollOffset(Double(Int.random(in: 0..<min(n, 50), using: &rng)), now: t)
        var events: [TimedCarouselEvent] = engine.takeEvents()

        let trace = ProcessInfo.processInfo.environment["KIOSK_TRACE_SEQUENCE"] == String(sequenceIndex)
        func feed(_ e: InputEvent) {
            for i in gestures.handle(e, now: t) {
                engine.apply(i, now: t)
                if trace { print(t, i, engine.scrollOffset, engine.motion, engine.itemCount) }
            }
        }
        func advance(_ dt: Double) { t += dt; engine.tick(now: t) }
        func check(_ what: String) -> String? {
            let s = engine.scrollOffset
            guard s.isFinite, engine.toggle.isFinite else { return "\(what): offset \(s) toggle \(engine.toggle) (\(o.type))" }
            guard engine.itemCount == 0 || (0..<engine.itemCount).contains(engine.currentIndex) else {
                return "\(what): index \(engine.currentIndex) of \(engine.itemCount)"
            }
            if engine.wraps, engine.itemCount > 0, !(s >= 0 && s < Double(engine.itemCount)) { return "\(what): wrapped offset \(s)" }
            if !engine.wraps, engine.itemCount > 0 {
                let slack = (o.bounces ? max(0, o.bounceDistance) : 0) + 1e-9
                if s < -slack || s > Double(engine.itemCount - 1) + slack { return "\(what): offset \(s) out of range" }
            }
            return nil
        }

        let steps = Int.random(in: 2...8, using: &rng)
        for step in 0..<steps {
            let x0 = Double.random(in: 0...view.width, using: &rng), y0 = Double.random(in: 0...view.height, using: &rng)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0...3:   // a swipe: several motions at a random speed, then up or cancel
                feed(.touchDown(slot: 0, x: x0, y: y0))
                let dx = Double.random(in: -60...60, using: &rng), dy = Double.random(in: -60...60, using: &rng)
                var x = x0, y = y0
                for _ in 0..<Int.random(in: 1...12, using: &rng) {
                    advance(1.0 / 120); x += dx; y += dy
                    feed(.touchMotion(slot: 0, x: x, y: y))
                    if Int.random(in: 0..<6, using: &rng) == 0 { feed(.touchDown(slot: 1, x: y, y: x)) }
                }
                advance(Double.random(in: 0...0.05, using: &rng))
                feed(Int.random(in: 0..<8, using: &rng) == 0 ? .touchCancel(slot: 0) : .touchUp(slot: 0))
                feed(.touchUp(slot: 1))
            case 4:       // a tap, or a long press
                feed(.touchDown(slot: 0, x: x0, y: y0))
                advance(Bool.random(using: &rng) ? 0.05 : 0.6)
                feed(.touchUp(slot: 0))
            case 5:       // a dial turn around the centre
                let c = Point2(view.width / 2, view.height / 2)
                var a = Double.random(in: -Double.pi...Double.pi, using: &rng)
                let da = Double.random(in: -0.8...0.8, using: &rng)
                feed(.touchDown(slot: 0, x: c.x + 150 * cos(a), y: c.y + 150 * sin(a)))
                for _ in 0..<Int.random(in: 1...30, using: &rng) {
                    advance(1.0 / 120); a += da
                    feed(.touchMotion(slot: 0, x: c.x + 150 * cos(a), y: c.y + 150 * sin(a)))
                }
                feed(.touchUp(slot: 0))
            case 6:
                feed(.rotary(delta: Int.random(in: -5...5, using: &rng)))
            case 7:
                feed(.keyDown([KeyName.left, .right, .up, .down, .enter, .escape, .home].randomElement(using: &rng)!))
            case 8:
                feed(.pointerAxis(delta: Double.random(in: -3...3, using: &rng)))
            case 9:
                engine.apply(Bool.random(using: &rng) ? .scrollTo(index: Int.random(in: -5...100, using: &rng), duration: Bool.random(using: &rng) ? nil : 0.2)
                                                     : .scrollBy(items: Double(Int.random(in: -7...7, using: &rng)), duration: nil),
                             now: t)
            case 10:
                if Bool.random(using: &rng) || n < 2 { engine.insertItem(at: Int.random(in: 0...n, using: &rng), now: t) }
                else { engine.removeItem(at: Int.random(in: 0..<n, using: &rng), now: t) }
                n = engine.itemCount
            default:
                var p = o
                p.type = CarouselType.allCases.randomElement(using: &rng)!
                engine.update(options: p, itemCount: n, now: t)
            }
            if trace { print("step", step, t, engine.scrollOffset, engine.motion, engine.itemCount, engine.options.type) }
            if let problem = check("after step \(step)") { return problem }
            advance(Double.random(in: 0...0.25, using: &rng))
            if let problem = check("after ticks \(step)") { return problem }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                for pose in engine.layout(viewSize: view) {
                    guard pose.transform.isFinite, pose.alpha.isFinite, pose.alpha >= 0, pose.alpha <= 1,
                          pose.index >= 0, pose.index < engine.itemCount else { return "bad pose \(pose)" }
                }
            }
            events += engine.takeEvents()
        }
        // Release and let it come to rest.
        feed(.touchUp(slot: 0))
        var waited = 0.0
        let patience = engine.options.autoscroll != 0 ? 0.5 : 8
        while engine.isMoving && waited < patience { advance(0.05); waited += 0.05 }
        events += engine.takeEvents()
        if let problem = check("at rest") { return problem }
        let autoscrolls = engine.options.autoscroll != 0
        if !autoscrolls, engine.isMoving {
            return "still moving after 8 s (\(engine.options.type)): \(engine.motion) toggle \(engine.toggle) held \(engine.held) offset \(engine.scrollOffset)"
        }
        let eventNames = events.map(\.event.name)
        for (began, ended) in [("drag_began", "drag_ended"), ("deceleration_began", "deceleration_ended"),
                               ("scroll_animation_began", "scroll_animation_ended")] {
            let b = eventNames.filter { $0 == began }.count, e = eventNames.filter { $0 == ended }.count
            if b != e && !autoscrolls { return "\(b) \(began) but \(e) \(ended)" }
        }
        if zip(events, events.dropFirst()).contains(where: { $0.time > $1.time }) { return "events out of time order" }
        if !autoscrolls, engine.options.scrollToItemBoundary, engine.itemCount > 0 {
            let s = engine.scrollOffset
            if abs(s - s.rounded()) > 1e-9 {
                return "came to rest between items at \(s) (\(engine.options.type)) held \(engine.held) wraps \(engine.wraps) events \(events.suffix(6).map(\.event.name))"
            }
        }
        return nil
    }
}
