import CRasterSupport

extension SpanShader {
    /// The partly covered columns `x0..<x1` of an axis-aligned quad's row next to a long
    /// interior (the card's left or right outline, usually one or two pixels), from the
    /// interior's filtered texture rows (`top`, `bottom`: index 0 is column `x0`) instead of a
    /// call of the single-pass loop of their own. The vertical step takes the plain weights
    /// and then alpha × coverage scales the sample, with coverage the product of the four
    /// clamped edge functions at the pixel: bit-identical to `filtered(axis: true,
    /// coverage: true)`, which computes the same values in the same order. Destination as in
    /// `verticalOver`: read from `from` (indexed by column), or the colour `color` when nil.
    @inline(__always)
    static func edgeOver(_ s: QuadSampler, _ top: FilteredRow, _ bottom: FilteredRow, rowF: Float, y: Int,
                         _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int,
                         from: UnsafePointer<UInt32>?, color: UInt32) {
        let (iwy16, wy16) = verticalWeights(Float8(repeating: rowF), alpha: 1)
        let origin = s.originX
        let e0 = s.edges.0, e1 = s.edges.1, e2 = s.edges.2, e3 = s.edges.3
        let c0 = Float(e0.a * Double(origin) + e0.b * Double(y) + e0.c), a0 = Float(e0.a)
        let c1 = Float(e1.a * Double(origin) + e1.b * Double(y) + e1.c), a1 = Float(e1.a)
        let c2 = Float(e2.a * Double(origin) + e2.b * Double(y) + e2.c), a2 = Float(e2.a)
        let c3 = Float(e3.a * Double(origin) + e3.b * Double(y) + e3.c), a3 = Float(e3.a)
        let alpha = Float8(repeating: s.alpha)
        let lanes = Float8(0, 1, 2, 3, 4, 5, 6, 7)
        let count = x1 &- x0
        var k = 0
        while k < count {
            // Pixel offsets from the quad's first column, as the single-pass loop steps them.
            let ks = lanes + Float8(repeating: Float((x0 &+ k) &- origin))
            var srb = raster_mulhi(top.rb(k), iwy16) &+ raster_mulhi(bottom.rb(k), wy16)
            var sag = raster_mulhi(top.ag(k), iwy16) &+ raster_mulhi(bottom.ag(k), wy16)
            var f = alpha
            f *= clamp(Float8(repeating: c0) + Float8(repeating: a0) * ks, 1)
                * clamp(Float8(repeating: c1) + Float8(repeating: a1) * ks, 1)
                * clamp(Float8(repeating: c2) + Float8(repeating: a2) * ks, 1)
                * clamp(Float8(repeating: c3) + Float8(repeating: a3) * ks, 1)
            let f16 = pairs(weight(f, scale: 65535))
            srb = raster_mulhi(srb, f16)
            sag = raster_mulhi(sag, f16)
            let n = count &- k < 8 ? count &- k : 8
            let out = row + (x0 &+ k)
            var d = UInt8x8(repeating: color)
            if let from {
                let src = from + (x0 &+ k)
                d = n == 8 ? UnsafeRawPointer(src).loadUnaligned(as: UInt8x8.self) : firstPixels(src, n)
            }
            let o = over(srb, sag, d)
            if n == 8 {
                UnsafeMutableRawPointer(out).storeBytes(of: o, as: UInt8x8.self)
            } else {
                for l in 0..<n { out[l] = o[l] }
            }
            k &+= 8
        }
    }

    /// Pixels `src[0..<n]` (0 < n < 8) in the first lanes; the other lanes repeat the last one.
    /// Built from scalar loads into registers: writing lanes of a vector one by one goes
    /// through memory, and reading the vector back then stalls (no store forwarding).
    @inline(__always)
    static func firstPixels(_ src: UnsafePointer<UInt32>, _ n: Int) -> UInt8x8 {
        let last = n &- 1
        @inline(__always) func at(_ l: Int) -> UInt32 { src[l < last ? l : last] }
        return UInt8x8(src[0], at(1), at(2), at(3), at(4), at(5), at(6), at(7))
    }
}
