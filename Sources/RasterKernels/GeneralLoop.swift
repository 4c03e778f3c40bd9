import CRasterSupport

extension SpanShader {
    /// Pixels `x0..<x1` of row `y` of an affine or projective quad onto `under`, in one pass
    /// over the run: the pixels in `inner` are fully covered, the others are scaled by their
    /// edge coverage. (One call per run instead of one per edge piece and one for the
    /// interior: the setup is paid once.) `s.gather` must be set (`BandWorker` sets it only where `s.stepX` is 1).
    static func general(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                        inner: Range<Int>, under: BackdropRow) {
        guard let g = s.gather else { return }
        var from: UnsafePointer<UInt32>? = UnsafePointer(row), color: UInt32 = 0
        switch under {
        case .frame: break
        case .pixels(let p): from = p
        case .color(let c): from = nil; color = c
        }
        let edges = x0 < inner.lowerBound || x1 > inner.upperBound
        let innerLo = inner.lowerBound, innerHi = inner.upperBound
        // Each combination its own copy of the loop (over a solid colour the destination's
        // share is the same for every pixel of the run).
        let onColor = from == nil
        switch (s.kind == .projective, edges, onColor) {
        case (true, true, true): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: true, edges: true, onColor: true)
        case (true, true, false): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: true, edges: true, onColor: false)
        case (true, false, true): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: true, edges: false, onColor: true)
        case (true, false, false): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: true, edges: false, onColor: false)
        case (false, true, true): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: false, edges: true, onColor: true)
        case (false, true, false): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: false, edges: true, onColor: false)
        case (false, false, true): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: false, edges: false, onColor: true)
        case (false, false, false): general(s, g, row, y, x0, x1, from, color, innerLo, innerHi, projective: false, edges: false, onColor: false)
        }
    }

    /// Affine and projective runs (texture one texel wide or more): the arithmetic of
    /// `filtered(axis: false)`, bit for bit, reorganised into chunks of `GatherScratch.chunk`
    /// pixels and two passes, so each pass keeps few values live and the texels are fetched as
    /// pairs with plain 64-bit loads instead of being inserted one by one into vectors:
    ///
    /// 1. per 8 pixels: texture coordinates, texel indices and the weights, stored;
    /// 2. per 8 pixels: the upper and lower texel pairs (left texel and right neighbour)
    ///    loaded (one block ahead), filtered, scaled by alpha × coverage (alpha alone in
    ///    `innerLo..<innerHi`) and blended onto the destination; `edges`: some pixels of the
    ///    run lie outside that range; `onColor`: the destination is the colour `color` (`from`
    ///    is nil).
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)  // Swift 6.2 (Debian's arm64 cross compiler; docs/arm64.md)
    #endif
    static func general(_ s: QuadSampler, _ g: GatherBuffers, _ row: UnsafeMutablePointer<UInt32>, _ y: Int,
                        _ x0: Int, _ x1: Int, _ from: UnsafePointer<UInt32>?, _ color: UInt32,
                        _ innerLo: Int, _ innerHi: Int, projective: Bool, edges: Bool, onColor: Bool) {
        let lanes = Float8(0, 1, 2, 3, 4, 5, 6, 7)
        let origin = s.originX
        let (u0, du, v0, dv, w0, dw) = rowStart(s, y: y)
        // Affine: the row in fixed point (nil: Float, as for projective rows).
        let fixed = projective ? nil : fixedRow(s, y: y)
        let (pu0, pv0, pw0) = (u0 + Float(s.um.1 * prefetchRows), v0 + Float(s.vm.1 * prefetchRows), w0 + Float(s.wm.1 * prefetchRows))
        let texels = s.texels, stride = s.stride, stepY = s.stepY
        let maxU = s.maxU, maxV = s.maxV
        let count = x1 - x0
        let skip = x0 &- origin
        // Per run, not per block: alpha as 16-bit weights, and the edge functions along this
        // row (value at the quad's first column, step per pixel).
        let alpha16 = pairs(weight(Float8(repeating: s.alpha), scale: 65535))
        let edgeRow = EdgeRow(s, y: y)
        // Texel offset from a pixel to the same column `prefetchRows` below, at `column` pixels
        // from the quad's first column. Projective quads: it drifts along the row and is taken
        // once per chunk. Affine quads: the same for every pixel (a hint, so clamping at the
        // texture's sides is ignored), the rounded step over those rows.
        @inline(__always) func prefetchOffset(at column: Int) -> Int {
            let c = Float(column)
            var cu = u0 + du * c, cv = v0 + dv * c, pu = pu0 + du * c, pv = pv0 + dv * c
            // With a column table (w the same down the column) no divide: 1/w is in the table.
            let iw: Float, piw: Float
            if let t = s.columns {
                iw = t.reciprocal[column]; piw = iw
            } else {
                iw = 1 / (w0 + dw * c); piw = 1 / (pw0 + dw * c)
            }
            cu *= iw; cv *= iw; pu *= piw; pv *= piw
            cu = clamp(cu, maxU); cv = clamp(cv, maxV); pu = clamp(pu, maxU); pv = clamp(pv, maxV)
            return (truncate(pv) &- truncate(cv)) &* stride &+ (truncate(pu) &- truncate(cu))
        }
        @inline(__always) func rows(_ step: Double) -> Int { int(step * prefetchRows, .toNearestOrAwayFromZero, limit: 1e6) }
        var offset = projective ? 0 : rows(s.vm.1) &* stride &+ rows(s.um.1)
        var start = 0
        while start < count {
            let n = count &- start < GatherScratch.chunk ? count &- start : GatherScratch.chunk
            // (Not worth two divides for the few pixels of an edge run.)
            if projective && n >= 16 { offset = prefetchOffset(at: skip &+ start &+ n / 2) }
            // 1. Indices and weights.
            var k = 0
            // Pixel positions from the quad's first column, as exact Floats (as in `filtered`).
            var ks = lanes + Float8(repeating: Float(skip &+ start))
            if let f = fixed {
                // Affine rows in fixed point: coordinates stepped by one addition per block.
                let ki = Int8x8(0, 1, 2, 3, 4, 5, 6, 7) &+ Int32(truncatingIfNeeded: skip &+ start)
                var fu0 = f.u &+ f.du &* ki, fv0 = f.v &+ f.dv &* ki
                let du8 = f.du &* 8, dv8 = f.dv &* 8
                while k < n {
                    let (idx, fu, fv) = texelIndex(fixedU: fu0, fixedV: fv0, s)
                    storeBlock(g, k, idx, weights: blockWeights(fu, fv), prefetch: texels + offset, below: stepY)
                    fu0 &+= du8
                    fv0 &+= dv8
                    k &+= 8
                }
            } else if projective, let t = s.columns {
                // Vertical sides: 1/w, u's texel and weight from the column table; only v here.
                // (The same expressions as below, so the same bits.)
                while k < n {
                    let column = skip &+ start &+ k
                    var v = Float8(repeating: v0) + Float8(repeating: dv) * ks
                    v *= UnsafeRawPointer(t.reciprocal + column).loadUnaligned(as: Float8.self)
                    let fv = raster_fixed16(v, s.maxV, 0.5, s.maxVFixed)
                    let idx = (fv &>> 16) &* Int32(truncatingIfNeeded: stride)
                        &+ UnsafeRawPointer(t.texelU + column).loadUnaligned(as: Int8x8.self)
                    let weights = UnsafeRawPointer(t.weightU + column).loadUnaligned(as: UInt8x8.self) | (verticalWeight(fv) &<< 16)
                    storeBlock(g, k, idx, weights: weights, prefetch: texels + offset, below: stepY)
                    k &+= 8
                    ks += 8
                }
            } else if projective && s.rowDepth {
                // Horizontal top and bottom: v and w (their steps along the row are ±0) are the
                // same for every pixel of the row, so 1/w, v's texel row and its weight are
                // worked out once (the expressions below on this block's positions, so the
                // same bits), and per pixel only u.
                let r = 1 / (Float8(repeating: w0) + Float8(repeating: dw) * ks)
                let fv = raster_fixed16((Float8(repeating: v0) + Float8(repeating: dv) * ks) * r, s.maxV, 0.5, s.maxVFixed)
                let rowIndex = (fv &>> 16) &* Int32(truncatingIfNeeded: stride), rowWeight = verticalWeight(fv) &<< 16
                while k < n {
                    let fu = raster_fixed16((Float8(repeating: u0) + Float8(repeating: du) * ks) * r, s.maxU, 256, s.maxUFixed)
                    storeBlock(g, k, rowIndex &+ (fu &>> 16), weights: horizontalWeight(fu) | rowWeight,
                               prefetch: texels + offset, below: stepY)
                    k &+= 8
                    ks += 8
                }
            } else {
                while k < n {
                    var u = Float8(repeating: u0) + Float8(repeating: du) * ks
                    var v = Float8(repeating: v0) + Float8(repeating: dv) * ks
                    if projective {
                        let r = 1 / (Float8(repeating: w0) + Float8(repeating: dw) * ks)
                        u *= r
                        v *= r
                    }
                    let (idx, fu, fv) = texelIndex(u, v, s)
                    storeBlock(g, k, idx, weights: blockWeights(fu, fv), prefetch: texels + offset, below: stepY)
                    k &+= 8
                    ks += 8
                }
            }
            // 2. Texel pairs, filter and blend: whole blocks, then the run's last, partial block
            // with masked loads and stores (kept out of the main loop). The slots of a partial
            // block past the run hold clamped, valid indices (pass 1 works in whole blocks).
            k = 0
            let out = row + (x0 &+ start)
            let under = from.map { $0 + (x0 &+ start) }
            let splat = UInt8x8(repeating: color)
            // The fully covered lanes of the block at screen column `c`, as lane numbers.
            @inline(__always) func covered(_ c: Int) -> (Int32, Int32) {
                (Int32(truncatingIfNeeded: innerLo &- c), Int32(truncatingIfNeeded: innerHi &- c))
            }
            // The texel pairs of the next block are loaded while this one is filtered (see
            // `BlockPairs`). Pass 1 wrote whole blocks, so a partial block's slots are valid;
            // after the last block its own are loaded again.
            var next = BlockPairs(s, g, 0)
            while k &+ 8 <= n {
                var d = splat
                if !onColor, let under { d = UnsafeRawPointer(under + k).loadUnaligned(as: UInt8x8.self) }
                let c = x0 &+ start &+ k
                let current = next
                next = BlockPairs(s, g, k &+ 8 < n ? k &+ 8 : k)
                let o: UInt8x8
                if edges && (c < innerLo || c &+ 8 > innerHi) {
                    o = blendBlock(s, g, k, skip &+ start &+ k, alpha16, edgeRow, d, covered: covered(c), edge: true, onColor: onColor, fetched: current)
                } else {
                    o = blendBlock(s, g, k, skip &+ start &+ k, alpha16, edgeRow, d, covered: (0, 8), edge: false, onColor: onColor, fetched: current)
                }
                raster_store8(out + k, o)
                k &+= 8
            }
            if k < n {
                let rest = n &- k
                var d = splat
                if let under { d = raster_load_partial8(under + k, rest) }
                let c = x0 &+ start &+ k
                let o = blendBlock(s, g, k, skip &+ start &+ k, alpha16, edgeRow, d, covered: covered(c), edge: edges, onColor: onColor,
                                   fetched: next)
                raster_store_partial8(out + k, o, rest)
            }
            start &+= n
        }
    }

    /// Pass 1 of `general` for the 8 pixels from chunk position `k`: their texel indices `idx`
    /// and both weights of each pixel in its lane (`horizontalWeight` of u in the low 16 bits,
    /// `verticalWeight` of v in the high 16: `blockWeights`), stored for pass 2; the texels at
    /// `prefetch` (`texels` moved by the prefetch offset) + the first index (the lane read
    /// without a shuffle), and the row `below` texels under them, prefetched.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func storeBlock(_ g: GatherBuffers, _ k: Int, _ idx: Int8x8, weights: UInt8x8,
                           prefetch: UnsafePointer<UInt32>, below: Int) {
        // Both weights of a pixel in one lane: pass 2 spreads them to its layout.
        raster_store8(g.weights + k, weights)
        // Stored in the order of pixels 0 1 4 5 2 3 6 7: pass 2's layout, in which
        // unpacking, packing and the filter's shuffles stay inside 128-bit halves.
        let slots = Int8x8(idx[0], idx[1], idx[4], idx[5], idx[2], idx[3], idx[6], idx[7])
        raster_store8(g.index + k, unsafeBitCast(slots, to: UInt8x8.self))
        // The texel rows the pixels `prefetchRows` below will need.
        let ahead = prefetch + Int(idx[0])
        raster_prefetch(ahead)
        raster_prefetch(ahead + below)
    }

    /// Both weights of 8 pixels from their 16.16 coordinates, one pixel per lane: the right
    /// texels' (`horizontalWeight`) in the low 16 bits, the lower row's (`verticalWeight`) in
    /// the high 16.
    @inline(__always)
    static func blockWeights(_ fu: Int8x8, _ fv: Int8x8) -> UInt8x8 {
        horizontalWeight(fu) | (verticalWeight(fv) &<< 16)
    }

    /// Pass 2 of `general` for the 8 pixels from chunk position `k`, `column`
    /// pixels right of the quad's first column: their texel pairs (`fetched`) filtered, scaled
    /// by alpha (and, with `edge`, by the edge coverage outside the lanes `covered`) and blended
    /// onto `d`. The arithmetic of `filtered` (`bilinear`, `over`) on the layout of 4 lanes per
    /// pixel, pixels 0 1 4 5 in one vector and 2 3 6 7 in the other: the slot order the texel
    /// indices are stored in.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func blendBlock(_ s: QuadSampler, _ g: GatherBuffers, _ k: Int, _ column: Int, _ alpha16: U16x16,
                           _ edgeRow: EdgeRow, _ d: UInt8x8, covered: (Int32, Int32), edge: Bool,
                           onColor: Bool, fetched: BlockPairs) -> UInt8x8 {
        #if !RASTER_KERNELS_AVX2 && !RASTER_KERNELS_V2 && !RASTER_KERNELS_NEON
        // Portable build: SSE2 has no byte shuffle or multiply-add of bytes to match
        // `raster_filter_pairs`; channel pairs in pixel order are cheaper there (and give the
        // same bits). The NEON module has them (tbl, umull/umlal: CRasterSupportNEON.h).
        return blendPairs(s, g, k, column, alpha16, edgeRow, d, covered: covered, edge: edge, fetched: fetched)
        #else
        // Pixels 0 1 4 5 (`half` 0) or 2 3 6 7 (`half` 1) of the block, value·256.
        @inline(__always) func source(_ half: Int, _ upper: UInt8x8, _ lower: UInt8x8) -> U16x16 {
            let w = UnsafeRawPointer(g.weights + k).loadUnaligned(as: UInt8x8.self)
            let wx = raster_spread4(w, Int32(half), 0), wy = unsafeBitCast(raster_spread4(w, Int32(half), 1), to: I16x16.self)
            let t = raster_filter_pairs(upper, wx)
            return value256(t &+ raster_mulhrs(raster_filter_pairs(lower, wx) &- t, wy))
        }
        var s0 = source(0, fetched.upper0, fetched.lower0), s1 = source(1, fetched.upper1, fetched.lower1)
        // Fully covered pixels: scaled by alpha alone (not at all when opaque).
        var p0 = s0, p1 = s1
        if s.alpha < 1 {
            p0 = raster_mulhi(s0, alpha16)
            p1 = raster_mulhi(s1, alpha16)
        }
        if edge {
            let f16 = edgeRow.weight(alpha: s.alpha, column: column), inside = lanesInside(covered)
            let in0 = raster_spread4(inside, 0, 0), in1 = raster_spread4(inside, 1, 0)
            s0 = (p0 & in0) | (raster_mulhi(s0, raster_spread4(f16, 0, 0)) & ~in0)
            s1 = (p1 & in1) | (raster_mulhi(s1, raster_spread4(f16, 1, 0)) & ~in1)
        } else {
            s0 = p0
            s1 = p1
        }
        // Source-over as `over` computes it, rounded once. (Over a colour both halves of the
        // destination are the same vector: one register fewer.)
        let d0 = raster_widen4(d, 0), d1 = onColor ? d0 : raster_widen4(d, 1)
        return raster_pack4(s0 &+ raster_mulhi(d0, raster_keep4(s0)), s1 &+ raster_mulhi(d1, raster_keep4(s1)))
        #endif
    }

    /// `blendBlock` of the portable build: the texel pairs split into left and right texels in
    /// pixel order, filtered on channel pairs by `bilinear` and blended by `over` (f, the right
    /// texels' weight, is the high byte of `horizontalWeight`'s 128 + 255·f).
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func blendPairs(_ s: QuadSampler, _ g: GatherBuffers, _ k: Int, _ column: Int, _ alpha16: U16x16,
                           _ edgeRow: EdgeRow, _ d: UInt8x8, covered: (Int32, Int32), edge: Bool,
                           fetched: BlockPairs) -> UInt8x8 {
        let w = UnsafeRawPointer(g.weights + k).loadUnaligned(as: UInt8x8.self)
        let t0 = fetched.upper0, t1 = fetched.upper1, b0 = fetched.lower0, b1 = fetched.lower1
        var (srb, sag) = bilinear(raster_split_pairs(t0, t1, 0), raster_split_pairs(t0, t1, 1),
                                  raster_split_pairs(b0, b1, 0), raster_split_pairs(b0, b1, 1),
                                  f: (w &>> 8) & 0xFF, wy: w &>> 16)
        // Fully covered pixels: scaled by alpha alone (not at all when opaque).
        var prb = srb, pag = sag
        if s.alpha < 1 {
            prb = raster_mulhi(srb, alpha16)
            pag = raster_mulhi(sag, alpha16)
        }
        if edge {
            let f16 = pairs(edgeRow.weight(alpha: s.alpha, column: column))
            let inside = unsafeBitCast(lanesInside(covered), to: U16x16.self)
            srb = (prb & inside) | (raster_mulhi(srb, f16) & ~inside)
            sag = (pag & inside) | (raster_mulhi(sag, f16) & ~inside)
        } else {
            srb = prb
            sag = pag
        }
        return over(srb, sag, d)
    }
}

/// The texel pairs (left texel and right neighbour) of the 8 pixels of one block of the
/// general loop, in pass 2's layout: upper and lower rows of pixels 0 1 4 5 (half 0) and
/// 2 3 6 7 (half 1).
///
/// Pass 2 loads the next block's pairs before it filters the current one. Loaded where they
/// are used, each block's arithmetic waits on an index load and then a texel load (about 12
/// cycles); loaded a block ahead, that wait overlaps the previous block's arithmetic (a card
/// rotated 25° 3 % faster, 9 % in the portable build).
struct BlockPairs {
    var upper0: UInt8x8, lower0: UInt8x8, upper1: UInt8x8, lower1: UInt8x8

    /// The pairs of the block at chunk position `k` of `g`.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    init(_ s: QuadSampler, _ g: GatherBuffers, _ k: Int) {
        let i0 = g.index + k, i1 = g.index + (k &+ 4), below = s.texels + s.stepY
        upper0 = raster_load_pairs4(s.texels, i0)
        lower0 = raster_load_pairs4(below, i0)
        upper1 = raster_load_pairs4(s.texels, i1)
        lower1 = raster_load_pairs4(below, i1)
    }
}

/// The four edge functions of a quad along one pixel row: value at the quad's first column and
/// step per pixel, in the Float precision of the inner loops.
struct EdgeRow {
    /// Edge function `i` at pixel x is `c.i + a.i · (x − originX)`.
    var c: (Float, Float, Float, Float)
    var a: (Float, Float, Float, Float)

    /// The edge functions of `s` along pixel row `y`.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    init(_ s: QuadSampler, y: Int) {
        let e = s.edges, x = Double(s.originX), row = Double(y)
        c = (Float(e.0.a * x + e.0.b * row + e.0.c), Float(e.1.a * x + e.1.b * row + e.1.c),
             Float(e.2.a * x + e.2.b * row + e.2.c), Float(e.3.a * x + e.3.b * row + e.3.c))
        a = (Float(e.0.a), Float(e.1.a), Float(e.2.a), Float(e.3.a))
    }

    /// alpha × the coverage (the product of the clamped edge functions) of the 8 pixels
    /// `column…column + 7` pixels right of the quad's first column, as 16-bit weights (0…65535)
    /// in 32-bit lanes: `filtered`'s order of operations.
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    func weight(alpha: Float, column: Int) -> UInt8x8 {
        let ks = Float8(0, 1, 2, 3, 4, 5, 6, 7) + Float8(repeating: Float(column))
        var f = Float8(repeating: alpha)
        f *= SpanShader.clamp(Float8(repeating: c.0) + Float8(repeating: a.0) * ks, 1)
            * SpanShader.clamp(Float8(repeating: c.1) + Float8(repeating: a.1) * ks, 1)
            * SpanShader.clamp(Float8(repeating: c.2) + Float8(repeating: a.2) * ks, 1)
            * SpanShader.clamp(Float8(repeating: c.3) + Float8(repeating: a.3) * ks, 1)
        return SpanShader.weight(f, scale: 65535)
    }
}

extension SpanShader {
    /// All ones in the lanes `covered.0..<covered.1` (lane − from ≥ 0 and to − 1 − lane ≥ 0),
    /// zero in the others, without SIMD masks (they lower to scalar code).
    #if compiler(>=6.3)
    @inline(always)
    #else
    @inline(__always)
    #endif
    static func lanesInside(_ covered: (Int32, Int32)) -> UInt8x8 {
        let lane = Int8x8(0, 1, 2, 3, 4, 5, 6, 7)
        let outside = (lane &- covered.0) | ((covered.1 &- 1) &- lane)
        return unsafeBitCast(~(outside &>> 31), to: UInt8x8.self)
    }
}
