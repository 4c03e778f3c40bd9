import CRasterSupport

typealias Float8 = SIMD8<Float>
typealias UInt8x8 = SIMD8<UInt32>
typealias Int8x8 = SIMD8<Int32>
typealias U16x16 = SIMD16<UInt16>
typealias I16x16 = SIMD16<Int16>

/// The inner loops: one run of pixels of one row of one quad, 8 pixels at a time.
///
/// Filtered kinds (projective, affine, axis-aligned) map each pixel centre through the inverse
/// homography (one 8-wide divide for projective quads: exact perspective, no subdivision),
/// clamp to the texture (edges are anti-aliased by coverage, not by transparent texels), fetch
/// the 2×2 texels, interpolate in 16-bit fixed point (value·256, so precision is kept until the
/// end), scale by alpha × coverage and blend source-over with a single rounding at the end. Texel rows a few screen rows ahead are prefetched: the loop is
/// bound by texture cache misses, not arithmetic.
///
/// `BandWorker` sends affine and projective runs to `general` (GeneralLoop.swift), which
/// computes the same values as `filtered` in chunks and two passes; `filtered` keeps the
/// axis-aligned edge and short runs and textures one texel wide.
///
/// Written against the portable standard-library SIMD types with only operations that lower to
/// single packed instructions (see docs/compositor.md): no float→int conversion initialisers,
/// no `pointwiseMin/Max`, no `addingProduct`.
enum SpanShader {
    /// Screen rows ahead whose texels are prefetched.
    static var prefetchRows: Double { 4 }

    /// Shades pixels `x0..<x1` of row `y` (`row` points at the row's pixel 0) onto `under`
    /// (what the row holds, or the backdrop where nothing was drawn yet).
    /// `coverage`: multiply by the edge coverage (false inside the quad's full-coverage span).
    /// Each case below is its own copy of the loop with the flags folded in.
    static func shade(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int, coverage: Bool,
                      under: BackdropRow = .frame) {
        // The destination is read from `from` (the row itself or the backdrop image's row) or is
        // the colour `color` when `from` is nil.
        var from: UnsafePointer<UInt32>? = UnsafePointer(row), color: UInt32 = 0
        switch under {
        case .frame: break
        case .pixels(let p): from = p
        case .color(let c): from = nil; color = c
        }
        switch (s.kind, coverage) {
        case (.projective, true):
            filtered(s, row, y, x0, x1, from, color, projective: true, axis: false, coverage: true)
        case (.projective, false):
            filtered(s, row, y, x0, x1, from, color, projective: true, axis: false, coverage: false)
        case (.affine, true):
            filtered(s, row, y, x0, x1, from, color, projective: false, axis: false, coverage: true)
        case (.affine, false):
            filtered(s, row, y, x0, x1, from, color, projective: false, axis: false, coverage: false)
        case (.axisAligned, true):
            filtered(s, row, y, x0, x1, from, color, projective: false, axis: true, coverage: true)
        case (.axisAligned, false):
            filtered(s, row, y, x0, x1, from, color, projective: false, axis: true, coverage: false)
        case (.blit, _):
            if case .frame = under {} else { fill(row, y: y, x0: x0, x1: x1, from: from, color: color) }
            blit(s, row: row, y: y, x0: x0, x1: x1)
        }
    }

    /// Writes the destination `from`/`color` describes into pixels `x0..<x1` of `row`.
    static func fill(_ row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int, from: UnsafePointer<UInt32>?, color: UInt32) {
        if let from { raster_copy32(row + x0, from + x0, x1 - x0) } else { raster_fill32(row + x0, color, x1 - x0) }
    }

    /// `round(f · scale)` as UInt32 lanes for 0 ≤ f ≤ 1, scale < 2²².
    @inline(__always)
    static func weight(_ f: Float8, scale: Float) -> UInt8x8 {
        unsafeBitCast(f * Float8(repeating: scale) + Float8(repeating: 8_388_608), to: UInt8x8.self) & 0x7F_FFFF
    }

    /// The 16-bit weights of the upper and lower texel rows for vertical fraction `fv`, both
    /// scaled by `alpha` (one rounding instead of two multiplies when alpha < 1). With
    /// alpha = 1 they sum to exactly 65535.
    @inline(__always)
    static func verticalWeights(_ fv: Float8, alpha: Float) -> (U16x16, U16x16) {
        if alpha >= 1 {
            let wy = weight(fv, scale: 65535)
            return (pairs(65535 &- wy), pairs(wy))
        }
        let a = Float8(repeating: alpha)
        return (pairs(weight((1 - fv) * a, scale: 65535)), pairs(weight(fv * a, scale: 65535)))
    }

    /// Each lane's low 16 bits in both halves, as 16-bit lanes.
    @inline(__always)
    static func pairs(_ w: UInt8x8) -> U16x16 {
        unsafeBitCast(w | (w &<< 16), to: U16x16.self)
    }

    /// Blue and red bytes as 16-bit lanes.
    @inline(__always)
    static func rb(_ p: UInt8x8) -> U16x16 { unsafeBitCast(p & 0x00FF_00FF, to: U16x16.self) }

    /// Green and alpha bytes as 16-bit lanes.
    @inline(__always)
    static func ag(_ p: UInt8x8) -> U16x16 { unsafeBitCast((p &>> 8) & 0x00FF_00FF, to: U16x16.self) }

    /// Source-over of a premultiplied source held as value·256 channel pairs onto opaque
    /// destination pixels, rounded once; the result's X byte is 0xFF.
    @inline(__always)
    static func over(_ srb: U16x16, _ sag: U16x16, _ d: UInt8x8) -> UInt8x8 {
        over(srb, sag, d, keep: keep(sag))
    }

    /// (1 − source alpha) · 65535 in both halves of each pixel's lanes, from the source's
    /// [G A] pairs. The alpha is rounded to 8 bits first, so that an opaque sample replaces the
    /// destination exactly (what lies behind it can then be skipped without changing a bit).
    @inline(__always)
    static func keep(_ sag: U16x16) -> U16x16 {
        #if RASTER_KERNELS_AVX2 || RASTER_KERNELS_NEON
        // The same value in four operations instead of eight: 255 − ⌊(a + 128) / 256⌋ is
        // ⌊(65407 − a) / 256⌋ (a ≤ 65280), worked out in the 16-bit lanes (the G lanes' results
        // are dropped), and one 32-bit multiply copies the byte into all four.
        let t = unsafeBitCast((U16x16(repeating: 65407) &- sag) &>> 8, to: UInt8x8.self) &>> 16
        return unsafeBitCast(t &* 0x0101_0101, to: U16x16.self)
        #elseif RASTER_KERNELS_V2
        return raster_keep_pairs(sag)  // the same value: psubw and pshufb
        #else
        let a = ((unsafeBitCast(sag, to: UInt8x8.self) &>> 16) &+ 128) &>> 8
        let t = 255 &- a
        let k = (t &<< 8) | t
        return unsafeBitCast(k | (k &<< 16), to: U16x16.self)
        #endif
    }

    /// `keep` for a source whose filtered alpha is 255 · 256 at every texel, scaled by the
    /// vertical weights `iwy`, `wy` (alpha folded in): one value for a whole run.
    @inline(__always)
    static func keep(opaqueWith iwy: U16x16, _ wy: U16x16) -> U16x16 {
        let opaque = U16x16(repeating: 65280)
        return keep(raster_mulhi(opaque, iwy) &+ raster_mulhi(opaque, wy))
    }

    /// Source-over with the destination's weight `keep` given (see `keep(_:)`).
    @inline(__always)
    static func over(_ srb: U16x16, _ sag: U16x16, _ d: UInt8x8, keep: U16x16) -> UInt8x8 {
        // rb(d) << 8 and ag(d) << 8, each in two operations or one.
        let drb = unsafeBitCast((d &<< 8) & 0xFF00_FF00, to: U16x16.self)
        let dag = unsafeBitCast(d & 0xFF00_FF00, to: U16x16.self)
        let half = U16x16(repeating: 128)
        return pack(srb &+ raster_mulhi(drb, keep) &+ half, sag &+ raster_mulhi(dag, keep) &+ half)
    }

    /// Channel pairs (value·256, rounding already added) to pixels with the X byte 0xFF.
    @inline(__always)
    static func pack(_ rb: U16x16, _ ag: U16x16) -> UInt8x8 {
        // [B R] → 0x00RR00BB; [G A] keeps each high byte in place → 0xAA00GG00.
        unsafeBitCast(rb &>> 8, to: UInt8x8.self) | unsafeBitCast(ag & 0xFF00, to: UInt8x8.self) | 0xFF00_0000
    }

    /// The pair loads below rely on little-endian lane order (a constant: folded away).
    static var littleEndian: Bool { UInt32(1).littleEndian == 1 }

    /// Texels `i0…i7` of `row` and their right neighbours (`stepX` further). With `adjacent`
    /// (stepX = 1) each pair comes from one 64-bit load and is split into even and odd lanes:
    /// half the loads and inserts of fetching the texels one by one. (Texel i is the low half
    /// of the 64-bit load: little-endian, as on x86-64 and AArch64 Linux; checked below.)
    @inline(__always)
    static func texelPairs(_ row: UnsafePointer<UInt32>, stepX: Int, adjacent: Bool,
                           _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int,
                           _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int) -> (UInt8x8, UInt8x8) {
        if adjacent && littleEndian {
            let t = UnsafeRawPointer(row)
            let both = unsafeBitCast(SIMD8<UInt64>(
                t.loadUnaligned(fromByteOffset: i0 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i1 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i2 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i3 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i4 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i5 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i6 &* 4, as: UInt64.self),
                t.loadUnaligned(fromByteOffset: i7 &* 4, as: UInt64.self)), to: SIMD16<UInt32>.self)
            return (both.evenHalf, both.oddHalf)
        }
        let q = row + stepX
        return (UInt8x8(row[i0], row[i1], row[i2], row[i3], row[i4], row[i5], row[i6], row[i7]),
                UInt8x8(q[i0], q[i1], q[i2], q[i3], q[i4], q[i5], q[i6], q[i7]))
    }

    /// `Int(v)` for 0 ≤ v < 2²¹ without the conversion's range check (adding 1.5·2²³ rounds
    /// v − ½ to an integer held in the low mantissa bits; an exact integer may come out one
    /// lower, which is harmless for a prefetch address).
    @inline(__always)
    static func truncate(_ v: Float) -> Int {
        Int(Int32(bitPattern: ((v - 0.5) + 12_582_912).bitPattern) &- 0x4B40_0000)
    }

    /// `v` limited to 0…hi (NaN becomes 0), without the library's out-of-line `min`/`max`.
    @inline(__always)
    static func clamp(_ v: Float, _ hi: Float) -> Float {
        v > hi ? hi : (v > 0 ? v : 0)
    }

    @inline(__always)
    static func clamp(_ v: Float8, _ hi: Float) -> Float8 {
        var r = v
        r.replace(with: 0, where: r .< 0)
        r.replace(with: hi, where: r .> hi)
        return r
    }

    /// u, v and w at the centre of the quad's first column on pixel row `y`, each followed by
    /// its step per pixel, in the Float precision of the loops. Coordinates step from the quad's
    /// first column, not from a run's, so a pixel gets bit-identical results however its row is
    /// split into runs (occlusion, bands, clips).
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)  // Swift 6.2 (Debian's arm64 cross compiler; docs/arm64.md)
    #endif
    static func rowStart(_ s: QuadSampler, y: Int) -> (Float, Float, Float, Float, Float, Float) {
        let px = Double(s.originX) + 0.5, py = Double(y) + 0.5
        return (Float(s.um.0 * px + s.um.1 * py + s.um.2), Float(s.um.0),
                Float(s.vm.0 * px + s.vm.1 * py + s.vm.2), Float(s.vm.0),
                Float(s.wm.0 * px + s.wm.1 * py + s.wm.2), Float(s.wm.0))
    }

    /// For 8 sample positions (texel-centre space): the index of each one's upper-left texel
    /// and u and v in 16.16 fixed point, clamped to the texture (`raster_fixed16`). u is rounded
    /// to the 7 bits of the horizontal weight (`horizontalWeight`), v to the 16 of the vertical
    /// one (`verticalWeight`).
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func texelIndex(_ u: Float8, _ v: Float8, _ s: QuadSampler) -> (Int8x8, Int8x8, Int8x8) {
        let fu = raster_fixed16(u, s.maxU, 256, s.maxUFixed)
        let fv = raster_fixed16(v, s.maxV, 0.5, s.maxVFixed)
        return (texelIndex(fu, fv, stride: s.stride), fu, fv)
    }

    /// The index (v's integer part) · stride + (u's integer part) of clamped 16.16 coordinates.
    @inline(__always)
    static func texelIndex(_ fu: Int8x8, _ fv: Int8x8, stride: Int) -> Int8x8 {
        (fv &>> 16) &* Int32(truncatingIfNeeded: stride) &+ (fu &>> 16)
    }

    /// Affine rows in 16.16 fixed point: u and v at the quad's first column of row `y` and
    /// their steps per pixel, from the Double homography (u with the horizontal weight's
    /// rounding, 2⁻⁸, added; v with the vertical one's, 2⁻¹⁷). A pixel k columns right of the
    /// first has the coordinates u + k·du, v + k·dv, exact integers however its row is split
    /// into runs, stepped with one addition per block (as pixman and Qt step theirs). Nil when
    /// the row's box reaches 30 000 texels or more (then the Float path).
    @inline(__always)
    static func fixedRow(_ s: QuadSampler, y: Int) -> (u: Int32, du: Int32, v: Int32, dv: Int32)? {
        let px = Double(s.originX) + 0.5, py = Double(y) + 0.5, width = Double(s.endX - s.originX)
        let u = s.um.0 * px + s.um.1 * py + s.um.2, v = s.vm.0 * px + s.vm.1 * py + s.vm.2
        let limit = 30_000.0
        guard abs(u) < limit, abs(v) < limit, abs(u + s.um.0 * width) < limit, abs(v + s.vm.0 * width) < limit else {
            return nil
        }
        // In range for `int32`: |u|, |v| < 30 000 texels, and the steps too (the box is at
        // least 2 pixels wide, and both its ends lie within 30 000 texels).
        return (int32(u * 65536 + 256, .down), int32(s.um.0 * 65536, .toNearestOrAwayFromZero),
                int32(v * 65536 + 0.5, .down), int32(s.vm.0 * 65536, .toNearestOrAwayFromZero))
    }

    /// `v` rounded by `rule` as an Int32, for |v| < 2³¹ (the caller checks), without the
    /// conversion's range checks: the integer is the low half of the sum's bits (1.5 · 2⁵²
    /// moves it into the mantissa's last bits).
    @inline(__always)
    static func int32(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int32 {
        Int32(truncatingIfNeeded: (v.rounded(rule) + 6_755_399_441_055_744).bitPattern)
    }

    /// `v` limited to ±`limit` (< 2³¹; NaN becomes −`limit`) and rounded by `rule`, without
    /// a range check.
    @inline(__always)
    static func int(_ v: Double, _ rule: FloatingPointRoundingRule, limit: Double) -> Int {
        Int(int32(min(limit, max(-limit, v)), rule))
    }

    /// `texelIndex` for 16.16 fixed-point coordinates (`fixedRow`): clamped to the texture.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func texelIndex(fixedU: Int8x8, fixedV: Int8x8, _ s: QuadSampler) -> (Int8x8, Int8x8, Int8x8) {
        let fu = raster_clamp_fixed(fixedU, s.maxUFixed), fv = raster_clamp_fixed(fixedV, s.maxVFixed)
        return (texelIndex(fu, fv, stride: s.stride), fu, fv)
    }

    /// The weight f (0…127, of 128) of the right texel for a 16.16 coordinate, as the byte pair
    /// 128 − f, f in each lane's low 16 bits (the operand of `raster_filter_pairs`).
    @inline(__always)
    static func horizontalWeight(_ fu: Int8x8) -> UInt8x8 {
        (unsafeBitCast(fu &>> 9, to: UInt8x8.self) & 127) &* 255 &+ 128
    }

    /// The weight of the lower texel row for a 16.16 coordinate: 0…32767 (of 32768).
    @inline(__always)
    static func verticalWeight(_ fv: Int8x8) -> UInt8x8 {
        (unsafeBitCast(fv, to: UInt8x8.self) & 0xFFFF) &>> 1
    }

    /// The bilinear filter of the affine and projective loops on channel pairs ([B R] and
    /// [G A] per pixel, value·256): horizontally with the 7-bit weight `f` of the right texels
    /// (biased by −16384 into signed 16 bits, as `raster_filter_pairs` computes it), vertically
    /// with `raster_mulhrs` and the 15-bit weight `wy` of the lower row. Integer operations
    /// only, each lane on its own: bit-identical to the general loop's other layout.
    @inline(__always)
    static func bilinear(_ p00: UInt8x8, _ p01: UInt8x8, _ p10: UInt8x8, _ p11: UInt8x8,
                         f: UInt8x8, wy: UInt8x8) -> (U16x16, U16x16) {
        let wx = pairs(f), iwx = pairs(128 &- f), w = unsafeBitCast(pairs(wy), to: I16x16.self)
        let bias = U16x16(repeating: 16384)
        @inline(__always) func horizontal(_ l: U16x16, _ r: U16x16) -> I16x16 {
            unsafeBitCast(l &* iwx &+ r &* wx &- bias, to: I16x16.self)
        }
        @inline(__always) func vertical(_ t: I16x16, _ b: I16x16) -> U16x16 { value256(t &+ raster_mulhrs(b &- t, w)) }
        return (vertical(horizontal(rb(p00), rb(p01)), horizontal(rb(p10), rb(p11))),
                vertical(horizontal(ag(p00), ag(p01)), horizontal(ag(p10), ag(p11))))
    }

    /// A filtered channel (value·128 − 16384) as value·256.
    @inline(__always)
    static func value256(_ v: I16x16) -> U16x16 { unsafeBitCast(v &+ v, to: U16x16.self) ^ 0x8000 }

    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func filtered(_ s: QuadSampler, _ row: UnsafeMutablePointer<UInt32>, _ y: Int, _ x0: Int, _ x1: Int,
                         _ from: UnsafePointer<UInt32>?, _ color: UInt32,
                         projective: Bool, axis: Bool, coverage useCoverage: Bool) {
        let lanes = Float8(0, 1, 2, 3, 4, 5, 6, 7)
        let origin = s.originX
        let (u0, du, v0, dv, w0, dw) = rowStart(s, y: y)
        // The same row `prefetchRows` below.
        let (pu0, pv0, pw0) = (u0 + Float(s.um.1 * prefetchRows), v0 + Float(s.vm.1 * prefetchRows), w0 + Float(s.wm.1 * prefetchRows))
        let texels = s.texels, stride = s.stride, stepX = s.stepX, stepY = s.stepY
        let maxU = s.maxU, maxV = s.maxV
        // Pair loads pay off only with table indices (callgrind: none for computed ones).
        let adjacent = axis && stepX == 1
        let scaled = useCoverage || s.alpha < 1
        let alpha = Float8(repeating: s.alpha)
        let edgeRow = EdgeRow(s, y: y)
        // Axis-aligned: one texture row pair and one vertical weight for the whole run.
        let rowV = clamp(v0, maxV)
        let rowI = Int(Int32(rowV))
        let rowF = Float8(repeating: rowV - Float(rowI))
        let rowBase = texels + rowI &* stride
        let columnTexel = s.columnTexel, columnWeight = s.columnWeight
        let count = x1 - x0
        let out = row + x0
        let skip = x0 &- origin
        // Affine: the row in fixed point (as `general` steps it).
        let fixed = !axis && !projective ? fixedRow(s, y: y) : nil
        // Affine: texel offset from a pixel to the same column `prefetchRows` below.
        var prefetchOffset = 0
        if !axis && !projective {
            let mid = Float(skip &+ count / 2)
            let cu = clamp(u0 + du * mid, maxU), cv = clamp(v0 + dv * mid, maxV)
            let pu = clamp(pu0 + du * mid, maxU), pv = clamp(pv0 + dv * mid, maxV)
            prefetchOffset = (truncate(pv) &- truncate(cv)) &* stride &+ (truncate(pu) &- truncate(cu))
        }
        var k = 0
        while k < count {
            let kf = Float(skip &+ k)
            let ks = lanes + Float8(repeating: kf)
            var u = Float8()
            if !axis { u = Float8(repeating: u0) + Float8(repeating: du) * ks }
            var v = Float8()
            if !axis { v = Float8(repeating: v0) + Float8(repeating: dv) * ks }
            if projective {
                let r = 1 / (Float8(repeating: w0) + Float8(repeating: dw) * ks)
                u *= r
                v *= r
            }
            let p00: UInt8x8, p01: UInt8x8, p10: UInt8x8, p11: UInt8x8
            // Axis-aligned: the right texels' weights (0…256) and the vertical weights of the
            // upper and lower rows (16 bits). Others: the 7-bit weight of the right texels and
            // the 15-bit weight of the lower row (`bilinear`).
            var wx16 = U16x16(), iwy16 = U16x16(), wy16 = U16x16(), f7 = UInt8x8(), wy15 = UInt8x8()
            if axis {
                // Texel column and weight per pixel column come from the quad's table.
                // Axis-aligned runs without coverage fold alpha into the vertical weights,
                // exactly as `separable` does (the two must agree bit for bit).
                (iwy16, wy16) = verticalWeights(rowF, alpha: !useCoverage && scaled ? s.alpha : 1)
                let ci = columnTexel + (x0 &+ k)
                wx16 = UnsafeRawPointer(columnWeight + (x0 &+ k)).loadUnaligned(as: U16x16.self)
                let r0 = rowBase, r1 = rowBase + stepY
                let i0 = Int(ci[0]), i1 = Int(ci[1]), i2 = Int(ci[2]), i3 = Int(ci[3])
                let i4 = Int(ci[4]), i5 = Int(ci[5]), i6 = Int(ci[6]), i7 = Int(ci[7])
                (p00, p01) = texelPairs(r0, stepX: stepX, adjacent: adjacent, i0, i1, i2, i3, i4, i5, i6, i7)
                (p10, p11) = texelPairs(r1, stepX: stepX, adjacent: adjacent, i0, i1, i2, i3, i4, i5, i6, i7)
            } else {
                let idx: Int8x8
                let fu: Int8x8, fv: Int8x8
                if let f = fixed {
                    let ki = Int8x8(0, 1, 2, 3, 4, 5, 6, 7) &+ Int32(truncatingIfNeeded: skip &+ k)
                    (idx, fu, fv) = texelIndex(fixedU: f.u &+ f.du &* ki, fixedV: f.v &+ f.dv &* ki, s)
                } else {
                    (idx, fu, fv) = texelIndex(u, v, s)
                }
                f7 = unsafeBitCast(fu &>> 9, to: UInt8x8.self) & 127
                wy15 = verticalWeight(fv)
                let i0 = Int(idx[0]), i1 = Int(idx[1]), i2 = Int(idx[2]), i3 = Int(idx[3])
                let i4 = Int(idx[4]), i5 = Int(idx[5]), i6 = Int(idx[6]), i7 = Int(idx[7])
                // Prefetch the texel rows the pixels `prefetchRows` below will need. Affine: the
                // middle texel moved by the row offset, exact but for clamping. Projective: the
                // offset drifts along the row (measured slower on the cylinder scene's steep
                // cards), so the position is computed through the homography.
                let ahead: UnsafePointer<UInt32>
                if projective {
                    let kk = kf + 3.5
                    let iw = 1 / (pw0 + dw * kk)
                    let pu = clamp((pu0 + du * kk) * iw, maxU), pv = clamp((pv0 + dv * kk) * iw, maxV)
                    ahead = texels + (truncate(pv) &* stride &+ truncate(pu))
                } else {
                    ahead = texels + (i4 &+ prefetchOffset)
                }
                raster_prefetch(ahead)
                raster_prefetch(ahead + stepY)
                let t = texels, b = texels + stepY
                (p00, p01) = texelPairs(t, stepX: stepX, adjacent: adjacent, i0, i1, i2, i3, i4, i5, i6, i7)
                (p10, p11) = texelPairs(b, stepX: stepX, adjacent: adjacent, i0, i1, i2, i3, i4, i5, i6, i7)
            }
            // Bilinear in 16-bit fixed point on channel pairs ([B R] and [G A] per pixel, value·256),
            // alpha·coverage through the high half of 16×16-bit products, then one rounding after
            // source-over. Axis-aligned: horizontal exactly, vertical through the high halves.
            let foldAlpha = axis && !useCoverage && scaled
            var srb: U16x16, sag: U16x16
            if axis {
                let iwx16 = 256 &- wx16
                let top0 = rb(p00) &* iwx16 &+ rb(p01) &* wx16, top1 = ag(p00) &* iwx16 &+ ag(p01) &* wx16
                let bot0 = rb(p10) &* iwx16 &+ rb(p11) &* wx16, bot1 = ag(p10) &* iwx16 &+ ag(p11) &* wx16
                srb = raster_mulhi(top0, iwy16) &+ raster_mulhi(bot0, wy16)
                sag = raster_mulhi(top1, iwy16) &+ raster_mulhi(bot1, wy16)
            } else {
                (srb, sag) = bilinear(p00, p01, p10, p11, f: f7, wy: wy15)
            }
            if scaled && !foldAlpha {
                let f16 = pairs(useCoverage ? edgeRow.weight(alpha: s.alpha, column: skip &+ k) : weight(alpha, scale: 65535))
                srb = raster_mulhi(srb, f16)
                sag = raster_mulhi(sag, f16)
            }
            let n = count &- k < 8 ? count &- k : 8
            let dstPtr = out + k
            var d = UInt8x8(repeating: color)
            if let from {
                let src = from + (x0 &+ k)
                if n == 8 {
                    d = UnsafeRawPointer(src).loadUnaligned(as: UInt8x8.self)
                } else {
                    for l in 0..<n { d[l] = src[l] }
                }
            }
            let o = over(srb, sag, d)
            if n == 8 {
                UnsafeMutableRawPointer(dstPtr).storeBytes(of: o, as: UInt8x8.self)
            } else {
                for l in 0..<n { dstPtr[l] = o[l] }
            }
            k &+= 8
        }
    }

    /// The first, horizontal pass of the separable axis-aligned path: texture row `texels`
    /// filtered at screen columns `x0..<x1` (rounded up to whole blocks of 8) into the planes
    /// `rb` ([B R] pairs, value·256) and `ag` ([G A] pairs) of a `FilteredRow`, index 0 for
    /// column `x0`: exactly the values `filtered` interpolates vertically.
    static func filterRow(_ s: QuadSampler, texels: UnsafePointer<UInt32>, x0: Int, x1: Int,
                          rb: UnsafeMutablePointer<UInt32>, ag: UnsafeMutablePointer<UInt32>) {
        if s.stepX == 1 {
            filterRow(s, texels: texels, x0: x0, x1: x1, rb: rb, ag: ag, adjacent: true)
        } else {
            filterRow(s, texels: texels, x0: x0, x1: x1, rb: rb, ag: ag, adjacent: false)
        }
    }

    @inline(__always)
    static func filterRow(_ s: QuadSampler, texels: UnsafePointer<UInt32>, x0: Int, x1: Int,
                          rb: UnsafeMutablePointer<UInt32>, ag: UnsafeMutablePointer<UInt32>, adjacent: Bool) {
        let columnTexel = s.columnTexel, columnWeight = s.columnWeight
        // Mirrored: texel columns fall from left to right, the lowest is the last one's.
        let lowLane = s.um.0 < 0 ? 7 : 0
        // Prefetch the texture row the next screen row will filter next: about one screen
        // row's step further than this row's neighbour (texture rows stream from L3 or memory
        // on large cards, and the hardware prefetcher starts late on each new row).
        let step = s.vm.1 < 0 ? -s.vm.1 : s.vm.1
        let rowsAhead = step < 64 ? max(1, Int(step)) : 64
        let ahead = texels + (s.vm.1 < 0 ? -rowsAhead : rowsAhead) &* s.stride
        let next = s.vm.1 < 0 ? -s.stride : s.stride
        var k = x0, b = 0
        while k < x1 {
            let ci = columnTexel + k
            raster_prefetch(ahead + Int(ci[0]))
            raster_prefetch(ahead + (Int(ci[0]) &+ next))
            let wx16 = UnsafeRawPointer(columnWeight + k).loadUnaligned(as: U16x16.self), iwx16 = 256 &- wx16
            let (p0, p1) = blockTexels(s, texels, ci, column: k, adjacent: adjacent, lowLane: lowLane)
            UnsafeMutableRawPointer(rb + b).storeBytes(of: SpanShader.rb(p0) &* iwx16 &+ SpanShader.rb(p1) &* wx16, as: U16x16.self)
            UnsafeMutableRawPointer(ag + b).storeBytes(of: SpanShader.ag(p0) &* iwx16 &+ SpanShader.ag(p1) &* wx16, as: U16x16.self)
            k &+= 8
            b &+= 8
        }
    }

    /// The left texels of the 8 columns from `column` (indices `ci`) in texture row `texels`,
    /// and their right neighbours, for the row filter. Plain loads where the texels lie close
    /// together, else a gather. AVX2: any 8 columns whose texels span fewer than 16 (scales
    /// down to ½, mirrored too: `lowLane` is the lane holding the lowest texel) are loaded as
    /// one or two windows and spread to the lanes with `vpermd`. Baseline (no variable
    /// shuffle): the `BlockShape`s of scales near 1. x86-64-v2: those, and magnified blocks as
    /// a 4-texel window per half spread with `pshufb` (`halves4`). The kind is the column
    /// table's.
    @inline(__always)
    static func blockTexels(_ s: QuadSampler, _ texels: UnsafePointer<UInt32>, _ ci: UnsafePointer<Int32>,
                            column: Int, adjacent: Bool, lowLane: Int) -> (UInt8x8, UInt8x8) {
        if adjacent {
            let shape = s.columnShape[column]
            #if RASTER_KERNELS_AVX2
            if shape != .gather {
                let low = Int(ci[lowLane])
                let d = UnsafeRawPointer(ci).loadUnaligned(as: Int8x8.self) &- Int8x8(repeating: Int32(truncatingIfNeeded: low))
                let run = UnsafeRawPointer(texels + low)
                var p0 = raster_permute8(run.loadUnaligned(as: UInt8x8.self), d)
                var p1 = raster_permute8(run.loadUnaligned(fromByteOffset: 4, as: UInt8x8.self), d)
                if shape == .window16 {
                    // Lanes past the first 8 texels (offset bit 3, moved to the sign bit) take
                    // theirs from the next 8.
                    let high = d &<< 28
                    p0 = raster_select8(p0, raster_permute8(run.loadUnaligned(fromByteOffset: 32, as: UInt8x8.self), d), high)
                    p1 = raster_select8(p1, raster_permute8(run.loadUnaligned(fromByteOffset: 36, as: UInt8x8.self), d), high)
                }
                return (p0, p1)
            }
            #else
            #if RASTER_KERNELS_V2
            if shape == .halves4 {
                let low = Int32(lowLane == 7 ? 3 : 0), spread = s.columnSpread + ColumnTable.spreadPerColumn &* column
                return (raster_v2_halves4(texels, ci, low, spread, 0), raster_v2_halves4(texels, ci, low, spread, 1))
            }
            #endif
            let i0 = Int(ci[0])
            if shape == .consecutive {
                // Eight consecutive texels (scale near 1): two plain loads instead of a gather.
                let run = UnsafeRawPointer(texels + i0)
                return (run.loadUnaligned(as: UInt8x8.self), run.loadUnaligned(fromByteOffset: 4, as: UInt8x8.self))
            }
            if shape != .gather {
                // One texel skipped (or repeated): the lanes from that point on come from the
                // run one texel further on (or back), picked by where the offset changes.
                let step = shape == .skipsOne ? 1 : -1
                let offset = UnsafeRawPointer(ci).loadUnaligned(as: Int8x8.self)
                    &- Int8x8(repeating: Int32(truncatingIfNeeded: i0)) &- Int8x8(0, 1, 2, 3, 4, 5, 6, 7)
                // Offsets are 0 or ±1: all ones where a lane moved (no SIMDMask: it lowers to
                // scalar code here).
                let moved = unsafeBitCast(step == 1 ? 0 &- offset : offset, to: UInt8x8.self)
                let run = UnsafeRawPointer(texels + i0), other = UnsafeRawPointer(texels + (i0 &+ step))
                return ((run.loadUnaligned(as: UInt8x8.self) & ~moved) | (other.loadUnaligned(as: UInt8x8.self) & moved),
                        (run.loadUnaligned(fromByteOffset: 4, as: UInt8x8.self) & ~moved)
                            | (other.loadUnaligned(fromByteOffset: 4, as: UInt8x8.self) & moved))
            }
            #endif
        }
        return gatherTexels(s, texels, ci, adjacent: adjacent)
    }

    /// `blockTexels`' fallback, texel by texel.
    @inline(__always)
    static func gatherTexels(_ s: QuadSampler, _ texels: UnsafePointer<UInt32>, _ ci: UnsafePointer<Int32>,
                             adjacent: Bool) -> (UInt8x8, UInt8x8) {
        let i0 = Int(ci[0]), i1 = Int(ci[1]), i2 = Int(ci[2]), i3 = Int(ci[3])
        let i4 = Int(ci[4]), i5 = Int(ci[5]), i6 = Int(ci[6]), i7 = Int(ci[7])
        return texelPairs(texels, stepX: s.stepX, adjacent: adjacent, i0, i1, i2, i3, i4, i5, i6, i7)
    }

    /// Pixels `x0..<x1` of a row of an axis-aligned quad, in two passes: the two texture rows
    /// filtered horizontally (`RowFilterCache`, shared with the neighbouring screen rows and
    /// with the other pieces of the run: `r`, from `separableRow`), then the vertical step,
    /// alpha and source-over on contiguous data, onto `under` (the frame row, or the backdrop
    /// for pixels nothing was drawn on yet). The partly covered columns either side of the
    /// fully covered `interior` (inside `x0..<x1`, may be empty) take the filtered rows too,
    /// with their coverage (`edgeOver`).
    /// Bit-identical to `filtered(axis: true, coverage: false)` inside `interior` and to
    /// `filtered(axis: true, coverage: true)` outside, over the same destination.
    /// Where every texel the interior reads is opaque the destination's weight is one value
    /// for the whole interior, and over a solid colour so is the destination's contribution.
    static func separable(_ s: QuadSampler, _ r: SeparableRow, _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int,
                          interior: Range<Int>, under: BackdropRow) {
        // The destination: the row itself, the backdrop image's row, or a colour (from nil).
        var from: UnsafePointer<UInt32>? = UnsafePointer(row), color: UInt32 = 0
        switch under {
        case .frame: break
        case .pixels(let p): from = p
        case .color(let c): from = nil; color = c
        }
        let lo = interior.lowerBound, hi = interior.upperBound
        if lo > x0 { edgeOver(s, r, row, x0, lo, from: from, color: color) }
        if x1 > hi { edgeOver(s, r, row, hi, x1, from: from, color: color) }
        guard hi > lo else { return }
        let top = r.top.advanced(by: lo &- r.first), bottom = r.bottom.advanced(by: lo &- r.first)
        let iwy16 = splat(r.iwy), wy16 = splat(r.wy)
        let opaque = s.isOpaque(row: r.rowI, columns: Int(s.columnTexel[lo]), Int(s.columnTexel[hi - 1]))
        let keep = opaque ? keep(opaqueWith: iwy16, wy16) : U16x16()
        let out = row + lo, count = hi - lo
        switch (from, opaque) {
        case (let from?, false):
            verticalOver(top, bottom, iwy16, wy16, out, count, from: from + lo, color: 0, keep: keep, constantKeep: false)
        case (let from?, true):
            verticalOver(top, bottom, iwy16, wy16, out, count, from: from + lo, color: 0, keep: keep, constantKeep: true)
        case (nil, false):
            verticalOver(top, bottom, iwy16, wy16, out, count, from: nil, color: color, keep: keep, constantKeep: false)
        case (nil, true):
            verticalOverColor(top, bottom, iwy16, wy16, out, count, color: color, keep: keep)
        }
    }

    /// The second pass of `separable`: destination pixels read from `from` (may be `out`), or
    /// the colour `color` when `from` is nil; `keep` is used for every pixel when
    /// `constantKeep`, else computed per pixel.
    @inline(__always)
    static func verticalOver(_ top: FilteredRow, _ bottom: FilteredRow, _ iwy16: U16x16, _ wy16: U16x16,
                             _ out: UnsafeMutablePointer<UInt32>, _ count: Int, from: UnsafePointer<UInt32>?,
                             color: UInt32, keep constant: U16x16, constantKeep: Bool) {
        let splat = UInt8x8(repeating: color)
        // Whole blocks of 8, then the tail (one loop for both spoils the code of the first).
        var k = 0
        while k &+ 8 <= count {
            let srb = raster_mulhi(top.rb(k), iwy16) &+ raster_mulhi(bottom.rb(k), wy16)
            let sag = raster_mulhi(top.ag(k), iwy16) &+ raster_mulhi(bottom.ag(k), wy16)
            let d = from.map { UnsafeRawPointer($0 + k).loadUnaligned(as: UInt8x8.self) } ?? splat
            let o = over(srb, sag, d, keep: constantKeep ? constant : keep(sag))
            UnsafeMutableRawPointer(out + k).storeBytes(of: o, as: UInt8x8.self)
            k &+= 8
        }
        if k < count {
            let srb = raster_mulhi(top.rb(k), iwy16) &+ raster_mulhi(bottom.rb(k), wy16)
            let sag = raster_mulhi(top.ag(k), iwy16) &+ raster_mulhi(bottom.ag(k), wy16)
            let d = from.map { firstPixels($0 + k, count &- k) } ?? splat
            let o = over(srb, sag, d, keep: constantKeep ? constant : keep(sag))
            for l in 0..<(count &- k) { out[k &+ l] = o[l] }
        }
    }

    /// `verticalOver` of an opaque run onto one colour: the colour's share is the same for every
    /// pixel, so each pixel is the vertical step plus a constant (bit-identical to `over`).
    @inline(__always)
    static func verticalOverColor(_ top: FilteredRow, _ bottom: FilteredRow, _ iwy16: U16x16,
                                  _ wy16: U16x16, _ out: UnsafeMutablePointer<UInt32>, _ count: Int,
                                  color: UInt32, keep: U16x16) {
        let d = UInt8x8(repeating: color)
        let half = U16x16(repeating: 128)
        let addRB = raster_mulhi(rb(d) &<< 8, keep) &+ half, addAG = raster_mulhi(ag(d) &<< 8, keep) &+ half
        var k = 0
        while k &+ 8 <= count {
            let srb = raster_mulhi(top.rb(k), iwy16) &+ raster_mulhi(bottom.rb(k), wy16)
            let sag = raster_mulhi(top.ag(k), iwy16) &+ raster_mulhi(bottom.ag(k), wy16)
            UnsafeMutableRawPointer(out + k).storeBytes(of: pack(srb &+ addRB, sag &+ addAG), as: UInt8x8.self)
            k &+= 8
        }
        if k < count {
            let srb = raster_mulhi(top.rb(k), iwy16) &+ raster_mulhi(bottom.rb(k), wy16)
            let sag = raster_mulhi(top.ag(k), iwy16) &+ raster_mulhi(bottom.ag(k), wy16)
            let o = pack(srb &+ addRB, sag &+ addAG)
            for l in 0..<(count &- k) { out[k &+ l] = o[l] }
        }
    }

    /// 1:1 at an integer offset: opaque rows are copied, others blended in integer arithmetic.
    @inline(__always)
    static func blit(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int) {
        let src = s.texels + (y + s.blitOffsetY) * s.stride + (x0 + s.blitOffsetX)
        let dst = row + x0
        let count = x1 - x0
        let a256 = UInt32((s.alpha * 256).rounded())
        var k = 0
        while k < count {
            let n = count - k < 8 ? count - k : 8
            var p: UInt8x8, d: UInt8x8
            if n == 8 {
                p = UnsafeRawPointer(src + k).loadUnaligned(as: UInt8x8.self)
                d = UnsafeRawPointer(dst + k).loadUnaligned(as: UInt8x8.self)
            } else {
                p = UInt8x8(); d = UInt8x8()
                for l in 0..<n { p[l] = src[k + l]; d[l] = dst[k + l] }
            }
            if a256 < 256 {
                let rb = ((p & 0x00FF_00FF) &* a256 &+ 0x0080_0080) &>> 8
                let ag = (((p &>> 8) & 0x00FF_00FF) &* a256 &+ 0x0080_0080) &>> 8
                p = (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) &<< 8)
            }
            let ia = 255 &- (p &>> 24)
            var rb = (d & 0x00FF_00FF) &* ia &+ 0x0080_0080
            rb = ((rb &+ ((rb &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
            var ag = ((d &>> 8) & 0x00FF_00FF) &* ia &+ 0x0080_0080
            ag = ((ag &+ ((ag &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
            let o = (p &+ (rb | (ag &<< 8))) | 0xFF00_0000
            if n == 8 {
                UnsafeMutableRawPointer(dst + k).storeBytes(of: o, as: UInt8x8.self)
            } else {
                for l in 0..<n { dst[k + l] = o[l] }
            }
            k &+= 8
        }
    }
}
