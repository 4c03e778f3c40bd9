import CRasterSupport

/// What the separable path needs about one screen row of an axis-aligned quad, worked out
/// once per visible run and shared by the pieces the run is split into (columns already
/// painted this frame and columns still showing the backdrop): the two filtered texture rows
/// (from `RowFilterCache`, index 0 is column `first`), the vertical weights, and the edge
/// functions' values at the quad's first column for the partly covered columns.
struct SeparableRow {
    var top: FilteredRow, bottom: FilteredRow
    /// The column at index 0 of `top` and `bottom`.
    var first: Int
    /// The upper texture row and the vertical fraction.
    var rowI: Int, rowF: Float
    /// Vertical weights with alpha folded in (fully covered columns), as the 16-bit pair every
    /// lane of `verticalWeights` holds (kept small: the row is passed around per piece).
    var iwy: UInt32, wy: UInt32
    /// Vertical weights without alpha (partly covered columns scale by alpha × coverage).
    var edgeIwy: UInt32, edgeWy: UInt32
    /// The edge functions along the row, as the single-pass loop steps them.
    var edges: EdgeRow
}

extension SpanShader {
    /// The `SeparableRow` of row `y` of `s` for the visible run `run` (texture rows filtered
    /// over all of it when `cache` does not hold them yet). The same arithmetic as
    /// `filtered(axis: true)`'s setup, so the pixels agree bit for bit.
    static func separableRow(_ s: QuadSampler, y: Int, run: Range<Int>, cache: RowFilterCache) -> SeparableRow {
        let rowV = clamp(rowStart(s, y: y).2, s.maxV)
        let rowI = Int(Int32(rowV))
        let rowF = rowV - Float(rowI)
        let (top, bottom) = cache.rows(s, top: rowI, run: run)
        let (iwy16, wy16) = verticalWeights(Float8(repeating: rowF), alpha: s.alpha < 1 ? s.alpha : 1)
        let (edgeIwy16, edgeWy16) = verticalWeights(Float8(repeating: rowF), alpha: 1)
        @inline(__always) func lane(_ w: U16x16) -> UInt32 { unsafeBitCast(w, to: UInt8x8.self)[0] }
        return SeparableRow(top: top, bottom: bottom, first: run.lowerBound, rowI: rowI, rowF: rowF,
                            iwy: lane(iwy16), wy: lane(wy16), edgeIwy: lane(edgeIwy16), edgeWy: lane(edgeWy16),
                            edges: EdgeRow(s, y: y))
    }

    /// The partly covered columns `x0..<x1` of an axis-aligned quad's row (its left or right
    /// outline, usually one or two pixels, or a whole top or bottom row), from the row's
    /// filtered texture rows instead of a call of the single-pass loop of their own. The
    /// vertical step takes the plain weights and then alpha × coverage scales the sample, with
    /// coverage the product of the four clamped edge functions at the pixel: bit-identical to
    /// `filtered(axis: true, coverage: true)`, which computes the same values in the same
    /// order. Destination as in `verticalOver`: read from `from` (indexed by column), or the
    /// colour `color` when nil.
    @inline(never)
    static func edgeOver(_ s: QuadSampler, _ r: SeparableRow, _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int,
                         from: UnsafePointer<UInt32>?, color: UInt32) {
        let count = x1 &- x0
        var k = 0
        while k &+ 8 <= count {
            edgeBlock(s, r, row, x0 &+ k, 8, from: from, color: color)
            k &+= 8
        }
        if k < count { edgeBlock(s, r, row, x0 &+ k, count &- k, from: from, color: color) }
    }

    /// One block of `edgeOver`: `n` (1…8) pixels from column `x`. Everything is computed
    /// here from scalars: vectors handed to an outlined block went through the stack and
    /// stalled on store forwarding.
    @inline(__always)
    static func edgeBlock(_ s: QuadSampler, _ r: SeparableRow, _ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ n: Int,
                          from: UnsafePointer<UInt32>?, color: UInt32) {
        let top = r.top.advanced(by: x &- r.first), bottom = r.bottom.advanced(by: x &- r.first)
        let iwy16 = splat(r.edgeIwy), wy16 = splat(r.edgeWy)
        var srb = raster_mulhi(top.rb(0), iwy16) &+ raster_mulhi(bottom.rb(0), wy16)
        var sag = raster_mulhi(top.ag(0), iwy16) &+ raster_mulhi(bottom.ag(0), wy16)
        // Pixel offsets from the quad's first column, as the single-pass loop steps them.
        let f16 = pairs(r.edges.weight(alpha: s.alpha, column: x &- s.originX))
        srb = raster_mulhi(srb, f16)
        sag = raster_mulhi(sag, f16)
        let out = row + x
        var d = UInt8x8(repeating: color)
        if let from {
            let src = from + x
            d = n == 8 ? UnsafeRawPointer(src).loadUnaligned(as: UInt8x8.self) : firstPixels(src, n)
        }
        let o = over(srb, sag, d)
        if n == 8 {
            UnsafeMutableRawPointer(out).storeBytes(of: o, as: UInt8x8.self)
        } else {
            for l in 0..<n { out[l] = o[l] }
        }
    }

    /// A 16-bit pair in every lane.
    @inline(__always)
    static func splat(_ pair: UInt32) -> U16x16 { unsafeBitCast(UInt8x8(repeating: pair), to: U16x16.self) }

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
