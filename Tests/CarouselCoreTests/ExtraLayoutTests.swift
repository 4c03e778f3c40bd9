import XCTest
@testable import CarouselCore

/// The layouts beyond iCarousel: conveyor belt, scaling pager, custom keyframe path.
final class ExtraLayoutTests: XCTestCase {
    // MARK: conveyor belt

    /// View height 720, roller 150, 5 on the front: roller_boundary = 360 − 150 = 210,
    /// item_spacing = 2·210/5 = 84. Offset 1 → s = 84 < 210: front, y = 84, z = 0.
    /// Offset −3.5 → s = 294, on the roller: θ = (294 − 210)/150 = 0.56, y = −(210 + 150·sin 0.56),
    /// z = 150·(cos 0.56 − 1). Offset 9 → s = 756 ≥ 210 + 150π = 681.24: back, y = 420 + 150π − 756, z = −300.
    func testConveyorBeltPath() {
        let fam = layoutFamily(options(.conveyorBelt, vertical: true)) as! ConveyorBeltLayout
        XCTAssertEqual(fam.itemSpacing, 84, accuracy: 1e-12)
        XCTAssertEqual(fam.belt(offset: 1).along, 84, accuracy: 1e-12)
        XCTAssertEqual(fam.belt(offset: 1).z, 0, accuracy: 1e-12)
        let th = 0.56
        XCTAssertEqual(fam.belt(offset: -3.5).along, -(210 + 150 * sin(th)), accuracy: 1e-9)
        XCTAssertEqual(fam.belt(offset: -3.5).z, 150 * (cos(th) - 1), accuracy: 1e-9)
        XCTAssertEqual(fam.belt(offset: 9).along, 420 + 150 * Double.pi - 756, accuracy: 1e-9)
        XCTAssertEqual(fam.belt(offset: 9).z, -300, accuracy: 1e-12)
        // The path is continuous where the front meets the roller and the roller meets the back.
        for s in [210.0, 210 + 150 * Double.pi] {
            let o = s / 84
            let a = fam.belt(offset: o - 1e-9), b = fam.belt(offset: o + 1e-9)
            XCTAssertEqual(a.along, b.along, accuracy: 1e-5)
            XCTAssertEqual(a.z, b.z, accuracy: 1e-5)
        }
    }

    /// Transform: Tr(0, y, 0), then m24 = 1/2000 and m34 = −1/500, then Rx(−π/2·0.1), then Tr(0, 0, z).
    /// Offset 1 (y = 84, z = 0): rows [1 0 0 0] [0 c −s 1/2000] [0 s c p]… worked: Rx(−θ)·T with
    /// Rx(−θ) rows [1 0 0][0 c −s][0 s c] gives row 2 = (0, c, −s, c/2000 − s·p), row 3 = (0, s, c, s/2000 + c·p),
    /// row 4 = (0, 84, 0, 1).
    func testConveyorBeltTransform() {
        let t = layoutTransform(options(.conveyorBelt, vertical: true), offset: 1)
        let th = Double.pi / 2 * 0.1, c = cos(th), s = sin(th), p = -1.0 / 500, m24 = 1.0 / 2000
        assertMatrix(t, [1, 0, 0, 0, 0, c, -s, c * m24 - s * p, 0, s, c, s * m24 + c * p, 0, 84, 0, 1])
        // On the back (offset 9, z = −300): Tr(0,0,−300) prepended adds −300·row 3 to row 4.
        let back = layoutTransform(options(.conveyorBelt, vertical: true), offset: 9)
        let y = 420 + 150 * Double.pi - 756
        XCTAssertEqual(back.m42, y - 300 * s, accuracy: 1e-9)
        XCTAssertEqual(back.m43, -300 * c, accuracy: 1e-9)
        XCTAssertEqual(back.m44, 1 - 300 * (s * m24 + c * p), accuracy: 1e-12)
    }

    /// Horizontal belt: x for y and the same tilt about y; roller boundary from the width:
    /// 640 − 150 = 490, spacing 2·490/5 = 196.
    func testConveyorBeltHorizontal() {
        let t = layoutTransform(options(.conveyorBelt), offset: 1)
        XCTAssertEqual(t.m41, 196, accuracy: 1e-9)
        // Ry(θ)·T row 1 = c·row1 − s·row3 → m14 = c·(1/2000) − s·p.
        XCTAssertEqual(t.m14, cos(Double.pi / 20) / 2000 - sin(Double.pi / 20) * (-1.0 / 500), accuracy: 1e-12)
    }

    // MARK: scaling pager

    /// View 1280, inset 40: room 1200; card 400×300 → fill = min(1200/400, 720/300) = 2.4, pages
    /// side by side 2.4·400 = 960 apart. Offset 0: scale 2.4, alpha 1. Offset 0.5: closeness 0.5 →
    /// scale 2.4·0.95, alpha 0.925, x = 480.
    /// Offset ≥ 1: scale 2.4·0.9, alpha 0.85 (ScalingCarousel's minimum), never growing again.
    func testScalingPager() {
        let o = options(.scaling, itemSize: Size2(400, 300)) { $0.inset = 40 }
        let fam = layoutFamily(o)
        let p = -1.0 / 500
        assertMatrix(fam.transform(offset: 0), [2.4, 0, 0, 0, 0, 2.4, 0, 0, 0, 0, 1, p, 0, 0, 0, 1])
        let half = 2.4 * 0.95
        assertMatrix(fam.transform(offset: 0.5), [half, 0, 0, 0, 0, half, 0, 0, 0, 0, 1, p, 480, 0, 0, 1])
        XCTAssertEqual(fam.alpha(offset: 0), 1)
        XCTAssertEqual(fam.alpha(offset: 0.5), 0.925, accuracy: 1e-12)
        var previous = (scale: Double.infinity, alpha: Double.infinity)
        for off in stride(from: 0.0, through: 4.0, by: 0.25) {
            let s = fam.transform(offset: off).m11, a = fam.alpha(offset: off)
            XCTAssertLessThanOrEqual(s, previous.scale)
            XCTAssertLessThanOrEqual(a, previous.alpha)
            previous = (s, a)
        }
        XCTAssertEqual(fam.alpha(offset: 3), 0.85, accuracy: 1e-12)
        XCTAssertEqual(fam.dragUnit, 960)
        // A card narrow enough for the width: pages are exactly the room apart, peeking in by the inset.
        let wide = layoutFamily(options(.scaling, itemSize: Size2(400, 100)) { $0.inset = 40 })
        XCTAssertEqual(wide.dragUnit, 1200)
        XCTAssertEqual(wide.transform(offset: 0).m11, 3)
    }

    /// The pager passes its corner radius on to the poses.
    func testScalingCornerRadius() {
        let e = CarouselEngine(options: options(.scaling) { $0.cornerRadius = 16 }, itemCount: 3)
        XCTAssertTrue(e.layout(viewSize: Size2(1280, 720)).allSatisfy { $0.cornerRadius == 16 })
    }

    // MARK: custom path

    /// Knots at −1, 0, 1 with x = −300, 0, 300 (a straight line) interpolate and extrapolate on the line;
    /// rotations in degrees; alpha clamped to 0…1.
    func testCustomPathLinearKeyframes() {
        let o = options(.custom) {
            $0.keyframes = [PathKeyframe(offset: -1, translate: (-300, 0, -100), rotate: (0, 30, 0), alpha: 0.5),
                            PathKeyframe(offset: 0),
                            PathKeyframe(offset: 1, translate: (300, 0, -100), rotate: (0, -30, 0), alpha: 0.5)]
        }
        let fam = layoutFamily(o)
        XCTAssertEqual(fam.transform(offset: 0.5).m41, 150, accuracy: 1e-9)
        XCTAssertEqual(fam.transform(offset: 2).m41, 600, accuracy: 1e-9)   // linear extrapolation
        XCTAssertEqual(fam.transform(offset: -3).m41, -900, accuracy: 1e-9)
        // z: −100, 0, −100 has a peak at 0 → slope 0 there; the end knot keeps the end secant −100.
        // Hermite at t = 0.5 on [0, 1]: h00·0 + h10·0 + h01·(−100) + h11·(−100) = 0.5·(−100) − 0.125·(−100) = −37.5.
        XCTAssertEqual(fam.transform(offset: 0.5).m43, -37.5, accuracy: 1e-9)
        // Offset 1: Tr(300, 0, −100)·Ry(−30°)·P.
        let a = -30 * Double.pi / 180
        assertMatrix(fam.transform(offset: 1), [cos(a), 0, -sin(a), -sin(a) * (-0.002), 0, 1, 0, 0, sin(a), 0, cos(a), cos(a) * (-0.002),
                                                300, 0, -100, 1.2])
        XCTAssertEqual(fam.alpha(offset: 0), 1)
        XCTAssertEqual(fam.alpha(offset: 1), 0.5, accuracy: 1e-12)
        XCTAssertEqual(fam.alpha(offset: 3), 0, accuracy: 1e-12)  // 0.5 − 2·0.5 < 0 → clamped
    }

    /// The interpolant passes its knots, never overshoots between monotone knots, and is smooth.
    func testMonotoneCubic() {
        let m = MonotoneCubic(xs: [-2, -1, 0, 0.5, 2], ys: [0, 0.1, 1, 1, 0.2])
        for (x, y) in zip(m.xs, m.ys) { XCTAssertEqual(m.value(at: x), y, accuracy: 1e-12) }
        for x in stride(from: -1.0, through: 0.0, by: 0.01) {
            XCTAssertGreaterThanOrEqual(m.value(at: x), 0.1 - 1e-12)
            XCTAssertLessThanOrEqual(m.value(at: x), 1 + 1e-12)
        }
        for x in stride(from: 0.0, through: 0.5, by: 0.01) { XCTAssertEqual(m.value(at: x), 1, accuracy: 1e-12) }
        // C¹: the slope seen from both sides of a knot agrees.
        let h = 1e-6
        let left = (m.value(at: -1) - m.value(at: -1 - h)) / h, right = (m.value(at: -1 + h) - m.value(at: -1)) / h
        XCTAssertEqual(left, right, accuracy: 1e-3)
    }

    /// Fewer than two keyframes: the custom type lays out like linear; duplicates keep the last one.
    func testCustomFallbackAndDuplicates() {
        XCTAssertTrue(layoutFamily(options(.custom)) is LinearLayout)
        XCTAssertTrue(layoutFamily(options(.custom) { $0.keyframes = [PathKeyframe(offset: 0)] }) is LinearLayout)
        let frames = CustomPathLayout.usableKeyframes([PathKeyframe(offset: 1, scale: 2), PathKeyframe(offset: 0),
                                                       PathKeyframe(offset: 1, scale: 3), PathKeyframe(offset: .nan)])
        XCTAssertEqual(frames.map(\.offset), [0, 1])
        XCTAssertEqual(frames[1].scale, 3)
    }
}
