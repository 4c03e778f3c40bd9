import Foundation

/// A 4×4 transform in Core Animation's `CATransform3D` convention: row vectors, `p' = p · M`,
/// translation in `m41…m43`, perspective in `m34`. iCarousel's layout math carries over term by term.
public struct Transform3D: Equatable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// `CATransform3DIdentity`.
    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                             m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0,
                                             m41: 0, m42: 0, m43: 0, m44: 1)

    /// The 16 entries row by row (`m11, m12, …, m44`), as the layout dump prints them.
    public var entries: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// `CATransform3DMakeTranslation`.
    public static func translation(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        var t = identity; t.m41 = x; t.m42 = y; t.m43 = z; return t
    }

    /// `CATransform3DMakeScale`.
    public static func scale(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        var t = identity; t.m11 = x; t.m22 = y; t.m33 = z; return t
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: a rotation by `angle` radians about the
    /// axis (x, y, z), with Core Animation's handedness (so the layouts match iCarousel's).
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0 else { return identity }
        let ax = x / len, ay = y / len, az = z / len
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D(
            m11: t * ax * ax + c, m12: t * ax * ay + az * s, m13: t * ax * az - ay * s, m14: 0,
            m21: t * ax * ay - az * s, m22: t * ay * ay + c, m23: t * ay * az + ax * s, m24: 0,
            m31: t * ax * az + ay * s, m32: t * ay * az - ax * s, m33: t * az * az + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// `CATransform3DConcat(self, other)`: first `self`, then `other` (`self · other`).
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// `CATransform3DTranslate(self, x, y, z)`: translate in the local frame, then `self`.
    public func translated(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.translation(x, y, z).concatenating(self)
    }

    /// `CATransform3DScale(self, x, y, z)`.
    public func scaled(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.scale(x, y, z).concatenating(self)
    }

    /// `CATransform3DRotate(self, angle, x, y, z)`.
    public func rotated(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.rotation(angle, x, y, z).concatenating(self)
    }

    /// Maps a point of the layer's plane (z = 0) through the matrix; returns the homogeneous
    /// (x, y, w) so that the screen point is (x / w, y / w). `w ≤ 0` means behind the eye.
    public func projectHomogeneous(x px: Double, y py: Double) -> (x: Double, y: Double, w: Double) {
        (px * m11 + py * m21 + m41, px * m12 + py * m22 + m42, px * m14 + py * m24 + m44)
    }

    /// The z a point of the layer's plane ends at (before perspective divide), for depth sorting.
    public func depth(x px: Double, y py: Double) -> Double { px * m13 + py * m23 + m43 }

    /// True when every entry is finite.
    public var isFinite: Bool { entries.allSatisfy { $0.isFinite } }
}
