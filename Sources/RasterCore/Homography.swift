import CarouselCore

/// A plane-to-plane projective map (3×3, column-vector form: `[x y w]ᵀ = H · [u v 1]ᵀ`).
public struct Homography: Equatable, Sendable {
    /// Row-major entries.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    public init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.m = m }

    public static func == (a: Homography, b: Homography) -> Bool {
        a.m.0 == b.m.0 && a.m.1 == b.m.1 && a.m.2 == b.m.2 && a.m.3 == b.m.3 && a.m.4 == b.m.4
            && a.m.5 == b.m.5 && a.m.6 == b.m.6 && a.m.7 == b.m.7 && a.m.8 == b.m.8
    }

    /// The map from the rectangle (0,0)–(w,h) onto the quad `c` (top-left, top-right,
    /// bottom-right, bottom-left), after Heckbert's square-to-quad construction.
    public static func rectToQuad(width w: Double, height h: Double, _ c: [Point2]) -> Homography? {
        guard c.count == 4 else { return nil }
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (c[0].x, c[0].y, c[1].x, c[1].y, c[2].x, c[2].y, c[3].x, c[3].y)
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let a, b, cc, d, e, f, g, hh: Double
        if abs(sx) < 1e-12 && abs(sy) < 1e-12 {
            a = x1 - x0; b = x2 - x1; cc = x0
            d = y1 - y0; e = y2 - y1; f = y0
            g = 0; hh = 0
        } else {
            let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
            let den = dx1 * dy2 - dx2 * dy1
            guard abs(den) > 1e-18 else { return nil }
            g = (sx * dy2 - dx2 * sy) / den
            hh = (dx1 * sy - sx * dy1) / den
            a = x1 - x0 + g * x1; b = x3 - x0 + hh * x3; cc = x0
            d = y1 - y0 + g * y1; e = y3 - y0 + hh * y3; f = y0
        }
        // Unit square → quad; pre-scale by 1/w, 1/h for the texture rectangle.
        return Homography((a / w, b / h, cc, d / w, e / h, f, g / w, hh / h, 1))
    }

    /// The inverse map, or nil when singular.
    public var inverse: Homography? {
        let (a, b, c, d, e, f, g, h, i) = m
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard abs(det) > 1e-18, det.isFinite else { return nil }
        let r = 1 / det
        return Homography((A * r, -(b * i - c * h) * r, (b * f - c * e) * r,
                           B * r, (a * i - c * g) * r, -(a * f - c * d) * r,
                           C * r, -(a * h - b * g) * r, (a * e - b * d) * r))
    }

    /// Applies the map to a point.
    public func apply(_ p: Point2) -> Point2 {
        let (a, b, c, d, e, f, g, h, i) = m
        let w = g * p.x + h * p.y + i
        return Point2((a * p.x + b * p.y + c) / w, (d * p.x + e * p.y + f) / w)
    }
}
