/// A monotone piecewise-cubic interpolant (PCHIP: Fritsch–Carlson with Fritsch–Butland's
/// weighted harmonic-mean slopes). It passes through every knot, is C¹, never overshoots between
/// knots (an alpha path stays within its keyframes' range) and continues as a straight line with
/// the end slope past the first and last knot.
struct MonotoneCubic {
    let xs: [Double]
    let ys: [Double]
    let slopes: [Double]

    /// `xs` strictly increasing, `xs.count == ys.count ≥ 2`.
    init(xs: [Double], ys: [Double]) {
        precondition(xs.count == ys.count && xs.count >= 2, "MonotoneCubic needs two or more knots")
        self.xs = xs
        self.ys = ys
        let n = xs.count
        var h = [Double](repeating: 0, count: n - 1), d = h
        for k in 0..<(n - 1) {
            h[k] = xs[k + 1] - xs[k]
            d[k] = (ys[k + 1] - ys[k]) / h[k]
        }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]
        m[n - 1] = d[n - 2]
        if n > 2 {
            for k in 1..<(n - 1) {
                if d[k - 1] * d[k] <= 0 { m[k] = 0; continue }
                let w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1]
                m[k] = (w1 + w2) / (w1 / d[k - 1] + w2 / d[k])
            }
        }
        slopes = m
    }

    /// The interpolated value at `x` (straight lines past the ends).
    func value(at x: Double) -> Double {
        let n = xs.count
        if x <= xs[0] { return ys[0] + slopes[0] * (x - xs[0]) }
        if x >= xs[n - 1] { return ys[n - 1] + slopes[n - 1] * (x - xs[n - 1]) }
        var lo = 0, hi = n - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if xs[mid] <= x { lo = mid } else { hi = mid }
        }
        let h = xs[hi] - xs[lo], t = (x - xs[lo]) / h
        let t2 = t * t, t3 = t2 * t
        let h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t
        let h01 = -2 * t3 + 3 * t2, h11 = t3 - t2
        return h00 * ys[lo] + h10 * h * slopes[lo] + h01 * ys[hi] + h11 * h * slopes[hi]
    }
}
