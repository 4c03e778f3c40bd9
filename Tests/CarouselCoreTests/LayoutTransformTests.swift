import XCTest
@testable import CarouselCore

/// Every type's transform pinned at several offsets, both orientations, default and non-default
/// options. Expected values are derived by hand from iCarousel 1.8.3's formulas in the comments;
/// `p` is the perspective m34 (−1/500 unless set), every item transform ends with iCarousel's
/// base `Tr(−viewpoint) · P`, and CATransform3D ops prepend: `T.translated(…) = Tr · T`.
final class LayoutTransformTests: XCTestCase {
    let p = -1.0 / 500
    let s2 = 2.0.squareRoot()

    // MARK: linear

    /// linear: Tr(offset·itemWidth·spacing, 0, 0). itemWidth 200 (card width), spacing 1:
    /// offset 1.5 → x = 300; offset −2 → x = −400.
    func testLinearHorizontal() {
        let o = options(.linear)
        assertMatrix(layoutTransform(o, offset: 1.5), translationRows(300, 0, 0))
        assertMatrix(layoutTransform(o, offset: -2), translationRows(-400, 0, 0))
        assertMatrix(layoutTransform(o, offset: 0), translationRows(0, 0, 0))
    }

    /// Vertical, item_width from the card height 150, spacing 1.2, perspective −1/1000, viewpoint
    /// (30, −20): y = 0.5·150·1.2 = 90; base moves by (−30, +20): m41 = −30, m42 = 90 + 20 = 110.
    func testLinearVerticalWithOptions() {
        let o = options(.linear, vertical: true) { $0.spacing = 1.2; $0.perspective = -1.0 / 1000; $0.viewpointOffset = Point2(30, -20) }
        assertMatrix(layoutTransform(o, offset: 0.5), translationRows(0, 90, 0, p: -1.0 / 1000, vx: 30, vy: -20))
    }

    // MARK: rotary

    /// 8 items, itemWidth 200, view 1280: count = min(8, trunc(min(30, max(12, ceil(1280/200)·π)))) =
    /// min(8, trunc(21.99)) = 8. radius = max(100, 100 / tan(π/8)) = 100·(1 + √2) = 241.42…
    /// Offset 1: angle = 1/8·2π = π/4, x = R·sin(π/4) = 100·(1 + √2)/√2 = 100·(√2/2 + 1)… = 170.71,
    /// z = R·cos(π/4) − R = 100·(1 + √2)(√2/2 − 1) = −100·√2/2 = −70.71.
    func testRotaryHorizontal() {
        let o = options(.rotary)
        let r = 100 * (1 + s2)
        assertMatrix(layoutTransform(o, offset: 1), translationRows(r * sin(.pi / 4), 0, r * cos(.pi / 4) - r))
        XCTAssertEqual(r * sin(.pi / 4), 100 * (s2 / 2 + 1) , accuracy: 1e-9) // the derivation's closed form
        // Offset −2: angle −π/2 → x = −R, z = −R.
        assertMatrix(layoutTransform(o, offset: -2), translationRows(-r, 0, -r))
    }

    /// inverted-rotary: radius and angle negated → x = (−R)·sin(−a) = R·sin a, z = −R·cos(−a) + R = R(1 − cos a).
    /// Vertical: the same on y.
    func testInvertedRotaryVertical() {
        let o = options(.invertedRotary, vertical: true, itemSize: Size2(150, 200))
        // item width = card height 200 → same R as above; extent = view height 720: ceil(720/200) = 4 → 4π = 12.57 → 12 → min(8, 12) = 8.
        let r = 100 * (1 + s2)
        assertMatrix(layoutTransform(o, offset: 1), translationRows(0, r * sin(.pi / 4), r * (1 - cos(.pi / 4))))
    }

    /// Explicit radius 500, arc π, count 6: angle(offset 1.5) = 1.5/6·π = π/4 → x = 500·sin(π/4), z = 500·(cos(π/4) − 1).
    func testRotaryOptions() {
        let o = options(.rotary) { $0.radius = 500; $0.arc = .pi; $0.count = 6 }
        assertMatrix(layoutTransform(o, offset: 1.5), translationRows(500 * sin(.pi / 4), 0, 500 * (cos(.pi / 4) - 1)))
    }

    // MARK: cylinder

    /// cylinder, 8 items, itemWidth 200: R = max(0.01, 100/tan(π/8)) = 241.42. Offset 1, a = π/4:
    /// T = Tr(0,0,R+0.01)·Ry(a)·Tr(0,0,−R)·P. Ry rows [c 0 −s][0 1 0][s 0 c]; Tr(0,0,R+.01)·Ry puts
    /// row 4 = ((R+.01)s, 0, (R+.01)c); ·Tr(0,0,−R) subtracts R from its z; ·P sets m?4 = m?3·p (+1 on row 4):
    /// rows [c 0 −s −s·p] [0 1 0 0] [s 0 c c·p] [(R+.01)s, 0, z, 1 + z·p] with z = (R+.01)c − R.
    func testCylinderHorizontal() {
        let o = options(.cylinder)
        let r = 100 * (1 + s2), c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        let z = (r + 0.01) * c - r
        assertMatrix(layoutTransform(o, offset: 1), [c, 0, -s, -s * p, 0, 1, 0, 0, s, 0, c, c * p, (r + 0.01) * s, 0, z, 1 + z * p])
    }

    /// Vertical cylinder rotates about (−1, 0, 0): Rx(−a) rows [1 0 0][0 c −s][0 s c]. Offset −1 (a = −π/4):
    /// c = cos(π/4), sin(−(−π/4))… with θ = −a = π/4: rows [0 c s] [0 −s c]; row 4 = (0, (R+.01)·(−sin θ)… )
    /// Worked: row4 = [0, 0, R+.01]·Rx(θ) = (0, −(R+.01)·sin θ, (R+.01)·cos θ), then z −= R.
    func testCylinderVertical() {
        let o = options(.cylinder, vertical: true, itemSize: Size2(150, 200))
        let r = 100 * (1 + s2), th = Double.pi / 4, c = cos(th), s = sin(th)
        let z = (r + 0.01) * c - r
        assertMatrix(layoutTransform(o, offset: -1), [1, 0, 0, 0, 0, c, s, s * p, 0, -s, c, c * p, 0, -(r + 0.01) * s, z, 1 + z * p])
    }

    /// inverted-cylinder: R → −R, a → −a. Offset 1: rows of Ry(−π/4), row 4 = ((−R+.01)·sin(−π/4), 0, (−R+.01)·cos(π/4) + R).
    func testInvertedCylinder() {
        let o = options(.invertedCylinder)
        let r = -100 * (1 + s2), a = -Double.pi / 4, c = cos(a), s = sin(a)
        let z = (r + 0.01) * c - r
        assertMatrix(layoutTransform(o, offset: 1), [c, 0, -s, -s * p, 0, 1, 0, 0, s, 0, c, c * p, (r + 0.01) * s, 0, z, 1 + z * p])
    }

    // MARK: wheel

    /// wheel, 8 items, itemWidth 200: R = 200·8/(2π) = 254.65, step = 2π/8. Horizontal, offset 1:
    /// T = Tr(0,−R,0.01)·Rz(π/4)·Tr(0,R,0)·P. Row 4 = [0,−R,.01]·Rz = (R·s, −R·c, .01), + (0, R, 0)
    /// → (R·s, R(1 − c), 0.01); rows 1–3 are Rz's with m34 = p.
    func testWheelHorizontal() {
        let o = options(.wheel)
        let r = 200 * 8 / (2 * Double.pi), c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        assertMatrix(layoutTransform(o, offset: 1), [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, p, r * s, r * (1 - c), 0.01, 1 + 0.01 * p])
    }

    /// Vertical wheel, offset −0.5 (angle −π/8): Tr(R,0,−.005)·Rz(−π/8)·Tr(−R,0,0): row 4 = (R·c − R, R·s, −0.005) with s = sin(−π/8).
    func testWheelVertical() {
        let o = options(.wheel, vertical: true, itemSize: Size2(150, 200))
        let r = 200 * 8 / (2 * Double.pi), a = -Double.pi / 8, c = cos(a), s = sin(a)
        assertMatrix(layoutTransform(o, offset: -0.5), [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, p, r * c - r, r * s, -0.005, 1 - 0.005 * p])
    }

    /// inverted-wheel with radius 300 and angle 0.2: R → −300, step → −0.2. Horizontal offset 2 (angle −0.4):
    /// row 4 = [0, 300, .02]·Rz(−0.4) + (0, −300, 0) = (300·(−sin 0.4)… ) worked: [0,−R',.02] with R' = −300 → (R'·s, −R'·c + R', .02).
    func testInvertedWheelOptions() {
        let o = options(.invertedWheel) { $0.radius = 300; $0.angle = 0.2 }
        let r = -300.0, a = -0.4, c = cos(a), s = sin(a)
        assertMatrix(layoutTransform(o, offset: 2), [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, p, r * s, r - r * c, 0.02, 1 + 0.02 * p])
    }

    // MARK: cover flow

    /// coverflow, itemWidth 400, tilt 0.9, spacing 0.25. Offset 0.5: clamped 0.5,
    /// x = (0.5·0.5·0.9 + 0.5·0.25)·400 = 140, z = −0.5·400·0.5 = −100, angle = −0.5·π/2·0.9.
    /// T = Ry(angle)·Tr(140, 0, −100)·P: rows [c 0 −s −s·p][0 1 0 0][s 0 c c·p][140 0 −100 1.2].
    func testCoverFlowHorizontal() {
        let o = options(.coverflow, itemSize: Size2(400, 300))
        let a = -0.5 * Double.pi / 2 * 0.9, c = cos(a), s = sin(a)
        assertMatrix(layoutTransform(o, offset: 0.5), [c, 0, -s, -s * p, 0, 1, 0, 0, s, 0, c, c * p, 140, 0, -100, 1.2])
        // Offset 3: clamped 1 → x = (0.45 + 0.75)·400 = 480, z = −200, angle −0.45π.
        let a3 = -0.45 * Double.pi, c3 = cos(a3), s3 = sin(a3)
        assertMatrix(layoutTransform(o, offset: 3), [c3, 0, -s3, -s3 * p, 0, 1, 0, 0, s3, 0, c3, c3 * p, 480, 0, -200, 1.4])
        // Offset 0: flat, at the centre.
        assertMatrix(layoutTransform(o, offset: 0), translationRows(0, 0, 0))
    }

    /// Vertical cover flow with tilt 0.5, spacing 0.4: offset −2 → clamped −1, y = (−0.25 − 0.8)·300 = −315,
    /// z = −150, angle = +π/4 about (−1,0,0) = Rx(−π/4): rows [1 0 0][0 c −s][0 s c] with c = s = √2/2.
    func testCoverFlowVerticalOptions() {
        let o = options(.coverflow, vertical: true, itemSize: Size2(400, 300)) { $0.tilt = 0.5; $0.spacing = 0.4 }
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        assertMatrix(layoutTransform(o, offset: -2), [1, 0, 0, 0, 0, c, -s, -s * p, 0, s, c, c * p, 0, -315, -150, 1 + (-150) * p])
    }

    /// coverflow2 with toggle −1 (just moved forward): offset 0.2 is in (−0.5, 0.5] → clamped = −toggle = 1,
    /// so the new centre item still looks like a right-hand item: x = (0.45 + 0.05)·400 = 200, z = −200.
    /// Offset −0.8 is in (−1.5, −0.5] → clamped = −1 − toggle = 0: the old centre item is still flat.
    func testCoverFlow2Toggle() {
        let o = options(.coverflow2, itemSize: Size2(400, 300))
        let a = -Double.pi / 2 * 0.9, c = cos(a), s = sin(a)
        assertMatrix(layoutTransform(o, toggle: -1, offset: 0.2), [c, 0, -s, -s * p, 0, 1, 0, 0, s, 0, c, c * p, 200, 0, -200, 1.4])
        assertMatrix(layoutTransform(o, toggle: -1, offset: -0.8), translationRows(-0.8 * 0.25 * 400, 0, 0))
        // toggle +0.5 (> 0 branch): offset 1.2 in (0.5, 1.5] → clamped 0.5: x = (0.225 + 0.3)·400 = 210.
        XCTAssertEqual(layoutTransform(o, toggle: 0.5, offset: 1.2).m41, 210, accuracy: 1e-9)
        // toggle 0 (at rest): the items within half a slot of the focus lie flat.
        assertMatrix(layoutTransform(o, toggle: 0, offset: 0.4), translationRows(0.4 * 0.25 * 400, 0, 0))
        // With toggle = scrollOffset − round(scrollOffset) (gliding), coverflow2 is coverflow: at 5.3 the
        // items sit at −1.3, −0.3, 0.7, 1.7 with toggle 0.3 → clamped −1, −0.3, 1 − 0.3, 1.
        let cf = options(.coverflow, itemSize: Size2(400, 300))
        for off in [-2.3, -1.3, -0.3, 0.7, 1.7, 2.7] {
            assertMatrix(layoutTransform(o, toggle: 0.3, offset: off), layoutTransform(cf, offset: off).entries)
        }
    }

    // MARK: time machine

    /// time-machine, itemWidth 400, tilt 0.3, spacing 1: offset −2 → Tr(−240, 0, −800), m44 = 1 + 800/500 = 2.6.
    func testTimeMachine() {
        let o = options(.timeMachine, itemSize: Size2(400, 300))
        assertMatrix(layoutTransform(o, offset: -2), translationRows(-240, 0, -800))
        // vertical, tilt 0.5, spacing 0.5: offset −1 → (0, −1·300·0.5, −1·300·0.5) (item width = card height 300).
        let v = options(.timeMachine, vertical: true, itemSize: Size2(400, 300)) { $0.tilt = 0.5; $0.spacing = 0.5 }
        assertMatrix(layoutTransform(v, offset: -1), translationRows(0, -150, -150))
    }

    /// inverted-time-machine: tilt → −tilt, offset → −offset. Offset 2: (−2·400·(−0.3)·… ) = Tr(2·… ) worked:
    /// o' = −2, t' = −0.3 → x = (−2)·400·(−0.3) = 240, z = (−2)·400 = −800.
    func testInvertedTimeMachine() {
        let o = options(.invertedTimeMachine, itemSize: Size2(400, 300))
        assertMatrix(layoutTransform(o, offset: 2), translationRows(240, 0, -800))
    }

    // MARK: alpha

    /// alphaForItemWithOffset: time machine fades items in front (fadeMax 0, range 1): offset 0.25 → 0.75;
    /// inverted fades behind (fadeMin 0). Options: fade_min −1, fade_max 1, range 2, min alpha 0.2 on linear:
    /// offset 2 → factor 1 → 1 − 1/2·0.8 = 0.6; offset −4 → factor 3 → min(3, 2)/2·0.8 → 0.2.
    func testAlpha() {
        XCTAssertEqual(layoutFamily(options(.timeMachine)).alpha(offset: 0.25), 0.75, accuracy: 1e-12)
        XCTAssertEqual(layoutFamily(options(.timeMachine)).alpha(offset: -3), 1, accuracy: 1e-12)
        XCTAssertEqual(layoutFamily(options(.timeMachine)).alpha(offset: 1.5), 0, accuracy: 1e-12)
        XCTAssertEqual(layoutFamily(options(.invertedTimeMachine)).alpha(offset: -0.5), 0.5, accuracy: 1e-12)
        let l = layoutFamily(options(.linear) { $0.fadeMin = -1; $0.fadeMax = 1; $0.fadeRange = 2; $0.fadeMinAlpha = 0.2 })
        XCTAssertEqual(l.alpha(offset: 2), 0.6, accuracy: 1e-12)
        XCTAssertEqual(l.alpha(offset: -4), 0.2, accuracy: 1e-12)
        XCTAssertEqual(l.alpha(offset: 0.5), 1, accuracy: 1e-12)
    }
}
