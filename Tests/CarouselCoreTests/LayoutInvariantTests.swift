import XCTest
@testable import CarouselCore

/// Properties every layout must keep, whatever the options.
final class LayoutInvariantTests: XCTestCase {
    /// Rotary items lie on a circle of the computed radius around (0, 0, −R).
    func testRotaryItemsOnCircle() {
        for vertical in [false, true] {
            // Slot spacing 200 either way (the card's width, or its height when vertical).
            let o = options(.rotary, vertical: vertical, itemSize: vertical ? Size2(150, 200) : Size2(200, 150))
            let r = 100 * (1 + 2.0.squareRoot())
            for off in stride(from: -4.0, through: 4.0, by: 0.37) {
                let t = layoutTransform(o, offset: off)
                let along = vertical ? t.m42 : t.m41
                let dist = (along * along + (t.m43 + r) * (t.m43 + r)).squareRoot()
                XCTAssertEqual(dist, r, accuracy: 1e-9)
            }
        }
    }

    /// Cylinder faces are tangent to the circle: the centre sits at radius R + 0.01 from the axis.
    func testCylinderCentresOnCircle() {
        let o = options(.cylinder)
        let r = 100 * (1 + 2.0.squareRoot())
        for off in [-3.0, -1.2, 0, 0.5, 2.5] {
            let t = layoutTransform(o, offset: off)
            XCTAssertEqual((t.m41 * t.m41 + (t.m43 + r) * (t.m43 + r)).squareRoot(), r + 0.01, accuracy: 1e-9)
        }
    }

    /// The cover flow's centre item is flat and facing the viewer; the others are turned.
    func testCoverFlowCentreFlat() {
        for type in [CarouselType.coverflow, .coverflow2] {
            for vertical in [false, true] {
                let t = layoutTransform(options(type, vertical: vertical), offset: 0)
                XCTAssertEqual(t.m11, 1); XCTAssertEqual(t.m22, 1); XCTAssertEqual(t.m33, 1)
                XCTAssertEqual(t.m13, 0); XCTAssertEqual(t.m31, 0); XCTAssertEqual(t.m23, 0)
                XCTAssertLessThan(layoutTransform(options(type, vertical: vertical), offset: 1).m33, 0.2)
            }
        }
    }

    /// Symmetric offsets mirror: x (or y) flips sign, z and alpha stay, for every symmetric type.
    /// (The wheels add offset·0.01 to z on purpose, for depth sorting; the conveyor belt's m24 makes
    /// its projection lopsided, so its belt path is checked on its own below.)
    func testSymmetricOffsetsMirror() {
        let types: [CarouselType] = [.linear, .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel,
                                     .invertedWheel, .coverflow, .coverflow2, .scaling]
        for type in types {
            for vertical in [false, true] {
                let o = options(type, vertical: vertical) { $0.perspective = 0 }
                let fam = layoutFamily(o)
                for off in [0.3, 1.0, 2.6] {
                    let a = fam.transform(offset: off), b = fam.transform(offset: -off)
                    let pa = a.projectHomogeneous(x: 0, y: 0), pb = b.projectHomogeneous(x: 0, y: 0)
                    let (alongA, alongB) = vertical ? (pa.y / pa.w, pb.y / pb.w) : (pa.x / pa.w, pb.x / pb.w)
                    XCTAssertEqual(alongA, -alongB, accuracy: 1e-7, "\(type) \(vertical) \(off)")
                    let wheelZ = (type == .wheel || type == .invertedWheel) ? 0.02 * off : 0
                    XCTAssertEqual(a.depth(x: 0, y: 0) - wheelZ, b.depth(x: 0, y: 0), accuracy: 1e-7, "\(type) \(off)")
                    XCTAssertEqual(fam.alpha(offset: off), fam.alpha(offset: -off), accuracy: 1e-12)
                }
            }
        }
    }

    /// Visible slot counts as iCarousel's updateNumberOfVisibleItems computes them.
    func testVisibleSlotCounts() {
        // linear: ceil(1280 / 200) + 2 = 9; with content offset 80 along x: ceil(1200/200) + 2 = 8.
        XCTAssertEqual(layoutFamily(options(.linear)).computedVisibleSlots, 9)
        XCTAssertEqual(layoutFamily(options(.linear) { $0.contentOffset = Point2(80, 0) }).computedVisibleSlots, 8)
        // coverflow: ceil(1280 / (200·0.25)) + 2 = 28.
        XCTAssertEqual(layoutFamily(options(.coverflow)).computedVisibleSlots, 28)
        // rotary: count; inverted: ceil(count / 2). 8 items → 8 and 4; 5 items → 5 and 3.
        XCTAssertEqual(layoutFamily(options(.rotary)).computedVisibleSlots, 8)
        XCTAssertEqual(layoutFamily(options(.invertedRotary)).computedVisibleSlots, 4)
        XCTAssertEqual(layoutFamily(options(.invertedCylinder), itemCount: 5).computedVisibleSlots, 3)
        // 40 items: count = trunc(min(30, max(12, 7π))) = 21.
        XCTAssertEqual(layoutFamily(options(.cylinder), itemCount: 40).computedVisibleSlots, 21)
        // wheel: R = 200·8/2π = 254.6; R − 100 < 360 → whole wheel (8). Radius 2000 → ceil(8/2) + 1 = 5.
        XCTAssertEqual(layoutFamily(options(.wheel)).computedVisibleSlots, 8)
        XCTAssertEqual(layoutFamily(options(.wheel) { $0.radius = 2000 }).computedVisibleSlots, 5)
        XCTAssertEqual(layoutFamily(options(.timeMachine)).computedVisibleSlots, 30)
    }

    /// The engine shows at most the visible slots, never more items than it has unless it wraps,
    /// and `visible_items` overrides.
    func testEngineVisibleItemsAndOverride() {
        let e = CarouselEngine(options: options(.linear), itemCount: 100)
        e.setScrollOffset(50, now: 0)
        XCTAssertEqual(e.layout(viewSize: Size2(1280, 720)).count, 9)
        e.update(options: options(.linear) { $0.visibleItems = 3 }, itemCount: 100, now: 0)
        XCTAssertEqual(Set(e.layout(viewSize: Size2(1280, 720)).map(\.index)), [49, 50, 51])
        let few = CarouselEngine(options: options(.linear), itemCount: 2)
        XCTAssertEqual(few.layout(viewSize: Size2(1280, 720)).map(\.index).sorted(), [0, 1])
    }

    /// A wrapping strip with fewer items than slots repeats them: no gap, and the picture is
    /// continuous when the offset wraps from just below `itemCount` to 0.
    func testSeamlessWrapWithFewItems() {
        let o = options(.linear) { $0.wrap = true }
        let e = CarouselEngine(options: o, itemCount: 2)
        let view = Size2(1280, 720)
        e.setScrollOffset(1.9999999, now: 0)
        let before = e.layout(viewSize: view)
        XCTAssertEqual(before.count, 9)
        e.setScrollOffset(0, now: 0)
        let after = e.layout(viewSize: view)
        let xsBefore = before.map { ($0.corners[0].x, $0.index) }.sorted { $0.0 < $1.0 }
        let xsAfter = after.map { ($0.corners[0].x, $0.index) }.sorted { $0.0 < $1.0 }
        // Every card on screen at 1.9999999 is (within 0.0001 px) where a card with the same item is at 0.
        for (x, i) in xsBefore where x > -400 && x < 1280 {
            XCTAssertTrue(xsAfter.contains { abs($0.0 - x) < 1e-3 && $0.1 == i }, "no card of item \(i) near x=\(x)")
        }
        // Items alternate 0, 1, 0, 1 across the strip.
        let order = after.sorted { $0.corners[0].x < $1.corners[0].x }.map(\.index)
        for k in 1..<order.count { XCTAssertNotEqual(order[k], order[k - 1]) }
    }

    /// The inverted cylinder hides items turned away (m33 ≤ 0); show_backfaces brings them back.
    func testInvertedCylinderHidesBackfaces() {
        let e = CarouselEngine(options: options(.invertedCylinder) { $0.visibleItems = 8 }, itemCount: 8)
        let hidden = e.layout(viewSize: Size2(1280, 720))
        XCTAssertTrue(hidden.allSatisfy { $0.transform.m33 > 0 })
        XCTAssertLessThan(hidden.count, 8)
        e.update(options: options(.invertedCylinder) { $0.visibleItems = 8; $0.showBackfaces = true }, itemCount: 8, now: 0)
        XCTAssertGreaterThan(e.layout(viewSize: Size2(1280, 720)).count, hidden.count)
    }

    /// Back to front: depth never decreases along the list, and the centre item of a cover flow
    /// and a rotary ring is drawn last.
    func testDepthOrderBackToFront() {
        for type in CarouselType.allCases {
            let e = CarouselEngine(options: options(type), itemCount: 12)
            e.setScrollOffset(5.3, now: 0)
            let poses = e.layout(viewSize: Size2(1280, 720))
            XCTAssertFalse(poses.isEmpty, "\(type)")
            for k in 1..<poses.count { XCTAssertLessThanOrEqual(poses[k - 1].depth, poses[k].depth, "\(type)") }
        }
        for type in [CarouselType.coverflow, .rotary, .linear] {
            let e = CarouselEngine(options: options(type), itemCount: 12)
            e.setScrollOffset(5, now: 0)
            XCTAssertEqual(e.layout(viewSize: Size2(1280, 720)).last?.index, 5, "\(type)")
        }
    }

    /// Corners: the centre card of a flat layout is the card rectangle around the view centre plus
    /// the content offset; the focus point moves it.
    func testCornersAndFocusPoint() {
        let e = CarouselEngine(options: options(.linear) { $0.contentOffset = Point2(10, 20) }, itemCount: 3)
        let centre = e.layout(viewSize: Size2(1000, 600)).first { $0.index == 0 }!
        XCTAssertEqual(centre.corners, [Point2(410, 245), Point2(610, 245), Point2(610, 395), Point2(410, 395)])
        e.update(options: options(.linear) { $0.focusPoint = Point2(0.5, 0.7) }, itemCount: 3, now: 0)
        let moved = e.layout(viewSize: Size2(1000, 600)).first { $0.index == 0 }!
        XCTAssertEqual(moved.corners[0].y, 225 + 120, accuracy: 1e-9)
        XCTAssertEqual(moved.transform.m42, 120, accuracy: 1e-9)
    }

    /// Nothing non-finite comes out of absurd options.
    func testAbsurdOptionsStayFinite() {
        for type in CarouselType.allCases {
            let o = options(type, itemSize: Size2(0, 0)) {
                $0.itemWidth = 0; $0.spacing = 0; $0.arc = 0; $0.count = 0; $0.radius = .nan
                $0.perspective = .infinity; $0.tilt = .nan; $0.rollerRadius = -5; $0.inset = 1e9
            }
            let e = CarouselEngine(options: o, itemCount: 5)
            e.setScrollOffset(2.5, now: 0)
            for pose in e.layout(viewSize: Size2(100, 100)) {
                XCTAssertTrue(pose.transform.isFinite, "\(type)")
                XCTAssertTrue(pose.alpha.isFinite && pose.depth.isFinite, "\(type)")
            }
        }
    }
}
