import XCTest
@testable import CarouselCore

/// The matrix helpers against Core Animation's definitions (row vectors, p' = p · M).
final class Transform3DTests: XCTestCase {
    /// CATransform3DMakeRotation(a, 0, 0, 1): (1, 0) goes to (cos a, sin a). With y down on screen a
    /// positive angle turns clockwise, as on iOS. Derivation: m11 = t·x² + c = c, m12 = t·x·y + z·s = s.
    func testRotationAboutZMapsXAxisToCosSin() {
        let a = 0.3
        let r = Transform3D.rotation(a, 0, 0, 1)
        assertMatrix(r, [cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        let p = r.projectHomogeneous(x: 1, y: 0)
        XCTAssertEqual(p.x, cos(a), accuracy: 1e-12)
        XCTAssertEqual(p.y, sin(a), accuracy: 1e-12)
    }

    /// About y: m13 = t·x·z − y·s = −s, m31 = t·x·z + y·s = s. So a card turned by a negative angle
    /// (iCarousel's right-hand cover-flow items, angle −tilt·π/2) brings its right edge forward:
    /// z of (x, 0, 0) = x·m13 = −x·sin(a) > 0 for x > 0.
    func testRotationAboutYHandedness() {
        let a = -0.9 * Double.pi / 2
        let r = Transform3D.rotation(a, 0, 1, 0)
        assertMatrix(r, [cos(a), 0, -sin(a), 0, 0, 1, 0, 0, sin(a), 0, cos(a), 0, 0, 0, 0, 1])
        XCTAssertGreaterThan(r.depth(x: 100, y: 0), 0)
    }

    /// About x: m23 = t·y·z + x·s = s, m32 = −s.
    func testRotationAboutXAndNegativeAxisIsInverseAngle() {
        let a = 0.7
        assertMatrix(Transform3D.rotation(a, 1, 0, 0), [1, 0, 0, 0, 0, cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1])
        let neg = Transform3D.rotation(a, -1, 0, 0), inv = Transform3D.rotation(-a, 1, 0, 0)
        assertMatrix(neg, inv.entries)
    }

    /// CATransform3DTranslate(t, …) = Translation · t: translating first, then applying t.
    func testTranslatedPrependsInLocalFrame() {
        var base = Transform3D.identity
        base.m34 = -0.002
        let t = base.translated(10, 20, 30)
        // [0,0,0,1]·Tr = [10,20,30,1]; ·base: m44 = 30·(−0.002) + 1 = 0.94
        assertMatrix(t, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 10, 20, 30, 0.94])
    }

    func testConcatenatingOrderAndIdentity() {
        let a = Transform3D.rotation(0.4, 0, 1, 0), b = Transform3D.translation(5, 0, 0)
        assertMatrix(a.concatenating(.identity), a.entries)
        // (a then b): the translation is added after the rotation.
        let ab = a.concatenating(b)
        XCTAssertEqual(ab.m41, 5, accuracy: 1e-12)
        XCTAssertEqual(ab.m11, cos(0.4), accuracy: 1e-12)
    }
}
