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
    /// pixels and three passes, so each pass keeps few values live and the texels are fetched
    /// as pairs with plain 64-bit loads instead of being inserted one by one into vectors:
    ///
    /// 1. per 8 pixels: texture coordinates, texel index and the weights, stored;
    /// 2. per pixel: its upper and lower texel pairs (left texel and right neighbour), stored;
    /// 3. per 8 pixels: the pairs split into left and right texels, filtered, scaled by
    ///    alpha × coverage (alpha alone in `innerLo..<innerHi`) and blended onto the
    ///    destination; `edges`: some pixels of the run lie outside that range; `onColor`: the
    ///    destination is the colour `color` (`from` is nil).
    @inline(always)
    static func general(_ s: QuadSampler, _ g: GatherBuffers, _ row: UnsafeMutablePointer<UInt32>, _ y: Int,
                        _ x0: Int, _ x1: Int, _ from: UnsafePointer<UInt32>?, _ color: UInt32,
                        _ innerLo: Int, _ innerHi: Int, projective: Bool, edges: Bool, onColor: Bool) {
        let lanes = Float8(0, 1, 2, 3, 4, 5, 6, 7)
        let origin = s.originX
        let (u0, du, v0, dv, w0, dw) = rowStart(s, y: y)
        let (pu0, pv0, pw0) = (u0 + Float(s.um.1 * prefetchRows), v0 + Float(s.vm.1 * prefetchRows), w0 + Float(s.wm.1 * prefetchRows))
        let texels = s.texels, stride = s.stride, stepY = s.stepY
        let maxU = s.maxU, maxV = s.maxV
        let count = x1 - x0
        let skip = x0 &- origin
        // Per run, not per block: alpha as 16-bit weights, and the edge functions along this
        // row (value at the quad's first column, step per pixel).
        let alpha16 = pairs(weight(Float8(repeating: s.alpha), scale: 65535))
        let row0 = Double(y), e = s.edges
        let edgeRow = EdgeRow(
            c: (Float(e.0.a * Double(origin) + e.0.b * row0 + e.0.c), Float(e.1.a * Double(origin) + e.1.b * row0 + e.1.c),
                Float(e.2.a * Double(origin) + e.2.b * row0 + e.2.c), Float(e.3.a * Double(origin) + e.3.b * row0 + e.3.c)),
            a: (Float(e.0.a), Float(e.1.a), Float(e.2.a), Float(e.3.a)))
        // Texel offset from a pixel to the same column `prefetchRows` below, at `column` pixels
        // from the quad's first column: exact for affine quads (but for clamping), for
        // projective ones it drifts along the row and is taken once per chunk.
        @inline(__always) func prefetchOffset(at column: Int) -> Int {
            let c = Float(column)
            var cu = u0 + du * c, cv = v0 + dv * c, pu = pu0 + du * c, pv = pv0 + dv * c
            if projective {
                let iw = 1 / (w0 + dw * c), piw = 1 / (pw0 + dw * c)
                cu *= iw; cv *= iw; pu *= piw; pv *= piw
            }
            cu = clamp(cu, maxU); cv = clamp(cv, maxV); pu = clamp(pu, maxU); pv = clamp(pv, maxV)
            return (truncate(pv) &- truncate(cv)) &* stride &+ (truncate(pu) &- truncate(cu))
        }
        var offset = projective ? 0 : prefetchOffset(at: skip &+ count / 2)
        var start = 0
        while start < count {
            let n = count &- start < GatherScratch.chunk ? count &- start : GatherScratch.chunk
            // (Not worth two divides for the few pixels of an edge run.)
            if projective && n >= 16 { offset = prefetchOffset(at: skip &+ start &+ n / 2) }
            // 1. Indices and weights.
            var k = 0, b = 0
            // Pixel positions from the quad's first column, as exact Floats (as in `filtered`).
            var ks = lanes + Float8(repeating: Float(skip &+ start))
            while k < n {
                var u = Float8(repeating: u0) + Float8(repeating: du) * ks
                var v = Float8(repeating: v0) + Float8(repeating: dv) * ks
                if projective {
                    let r = 1 / (Float8(repeating: w0) + Float8(repeating: dw) * ks)
                    u *= r
                    v *= r
                }
                let (idx, wx16, wy16) = texelIndex(u, v, s)
                g.weightX[b] = wx16
                // The upper row's weight is 65535 − the lower one's: its complement (pass 3).
                g.weightBottom[b] = wy16
                // Stored in the order of pixels 0 1 4 5 2 3 6 7, so that pass 3 splits the pairs
                // into left and right texels with shuffles inside 128-bit halves only.
                let slots = Int8x8(idx[0], idx[1], idx[4], idx[5], idx[2], idx[3], idx[6], idx[7])
                UnsafeMutableRawPointer(g.index + k).storeBytes(of: slots, as: Int8x8.self)
                // The texel rows the pixels `prefetchRows` below will need.
                let ahead = texels + (Int(idx[4]) &+ offset)
                raster_prefetch(ahead)
                raster_prefetch(ahead + stepY)
                k &+= 8
                b &+= 1
                ks += 8
            }
            // 2. Texel pairs, two pixels per 128-bit store. Whole blocks: the slots are in the
            // order 0 1 4 5 2 3 6 7, and the lanes past the run hold clamped, valid indices.
            let t = UnsafeRawPointer(texels), below = UnsafeRawPointer(texels + stepY)
            // Unrolled to a block per iteration (the loop's own instructions were a fifth).
            @inline(__always) func fetch(_ j: Int) {
                let a = Int(g.index[j]) &* 4, c = Int(g.index[j &+ 1]) &* 4
                UnsafeMutableRawPointer(g.top + j).storeBytes(of: SIMD2<UInt64>(
                    t.loadUnaligned(fromByteOffset: a, as: UInt64.self), t.loadUnaligned(fromByteOffset: c, as: UInt64.self)),
                    as: SIMD2<UInt64>.self)
                UnsafeMutableRawPointer(g.bottom + j).storeBytes(of: SIMD2<UInt64>(
                    below.loadUnaligned(fromByteOffset: a, as: UInt64.self), below.loadUnaligned(fromByteOffset: c, as: UInt64.self)),
                    as: SIMD2<UInt64>.self)
            }
            var j = 0
            let slots = (n &+ 7) & ~7
            while j < slots {
                fetch(j)
                fetch(j &+ 2)
                fetch(j &+ 4)
                fetch(j &+ 6)
                j &+= 8
            }
            // 3. Filter and blend: whole blocks, then the run's last, partial block with masked
            // loads and stores (kept out of the main loop).
            k = 0
            b = 0
            let out = row + (x0 &+ start)
            let under = from.map { $0 + (x0 &+ start) }
            let splat = UInt8x8(repeating: color)
            // The fully covered lanes of the block at screen column `c`, as lane numbers.
            @inline(__always) func covered(_ c: Int) -> (Int32, Int32) {
                (Int32(truncatingIfNeeded: innerLo &- c), Int32(truncatingIfNeeded: innerHi &- c))
            }
            while k &+ 8 <= n {
                var d = splat
                if !onColor, let under { d = UnsafeRawPointer(under + k).loadUnaligned(as: UInt8x8.self) }
                let c = x0 &+ start &+ k
                let o: UInt8x8
                if edges && (c < innerLo || c &+ 8 > innerHi) {
                    o = blendBlock(s, g, k, b, skip &+ start &+ k, alpha16, edgeRow, d, covered: covered(c), edge: true)
                } else {
                    o = blendBlock(s, g, k, b, skip &+ start &+ k, alpha16, edgeRow, d, covered: (0, 8), edge: false)
                }
                UnsafeMutableRawPointer(out + k).storeBytes(of: o, as: UInt8x8.self)
                k &+= 8
                b &+= 1
            }
            if k < n {
                let rest = n &- k
                var d = splat
                if let under { d = raster_load_partial8(under + k, rest) }
                let c = x0 &+ start &+ k
                let o = blendBlock(s, g, k, b, skip &+ start &+ k, alpha16, edgeRow, d, covered: covered(c), edge: edges)
                raster_store_partial8(out + k, o, rest)
            }
            start &+= n
        }
    }

    /// Pass 3 of `general` for the 8 pixels from chunk position `k` (block `b`), `column`
    /// pixels right of the quad's first column: filtered, scaled by alpha (and, with `edge`,
    /// by the edge coverage outside the lanes `covered`) and blended onto `d`.
    @inline(always)
    static func blendBlock(_ s: QuadSampler, _ g: GatherBuffers, _ k: Int, _ b: Int, _ column: Int, _ alpha16: U16x16,
                           _ edgeRow: EdgeRow, _ d: UInt8x8, covered: (Int32, Int32), edge: Bool) -> UInt8x8 {
        let p00 = raster_pair_halves(g.top + k, 0), p01 = raster_pair_halves(g.top + k, 1)
        let p10 = raster_pair_halves(g.bottom + k, 0), p11 = raster_pair_halves(g.bottom + k, 1)
        let wx16 = g.weightX[b], iwx16 = 256 &- wx16
        let wy16 = g.weightBottom[b], iwy16 = ~wy16
        let top0 = rb(p00) &* iwx16 &+ rb(p01) &* wx16, top1 = ag(p00) &* iwx16 &+ ag(p01) &* wx16
        let bot0 = rb(p10) &* iwx16 &+ rb(p11) &* wx16, bot1 = ag(p10) &* iwx16 &+ ag(p11) &* wx16
        var srb = raster_mulhi(top0, iwy16) &+ raster_mulhi(bot0, wy16)
        var sag = raster_mulhi(top1, iwy16) &+ raster_mulhi(bot1, wy16)
        // Fully covered pixels: scaled by alpha alone (not at all when opaque).
        var prb = srb, pag = sag
        if s.alpha < 1 {
            prb = raster_mulhi(srb, alpha16)
            pag = raster_mulhi(sag, alpha16)
        }
        if edge {
            let ks = Float8(0, 1, 2, 3, 4, 5, 6, 7) + Float8(repeating: Float(column))
            let c = edgeRow.c, a = edgeRow.a
            // alpha × (the coverage product), in `filtered`'s order of operations.
            var f = Float8(repeating: s.alpha)
            f *= clamp(Float8(repeating: c.0) + Float8(repeating: a.0) * ks, 1)
                * clamp(Float8(repeating: c.1) + Float8(repeating: a.1) * ks, 1)
                * clamp(Float8(repeating: c.2) + Float8(repeating: a.2) * ks, 1)
                * clamp(Float8(repeating: c.3) + Float8(repeating: a.3) * ks, 1)
            let f16 = pairs(weight(f, scale: 65535))
            // All ones in the lanes `covered` (lane − from ≥ 0 and to − 1 − lane ≥ 0), without
            // SIMD masks (they lower to scalar code).
            let lane = Int8x8(0, 1, 2, 3, 4, 5, 6, 7)
            let outside = (lane &- covered.0) | ((covered.1 &- 1) &- lane)
            let inside = unsafeBitCast(~(outside &>> 31), to: U16x16.self)
            srb = (prb & inside) | (raster_mulhi(srb, f16) & ~inside)
            sag = (pag & inside) | (raster_mulhi(sag, f16) & ~inside)
        } else {
            srb = prb
            sag = pag
        }
        return over(srb, sag, d)
    }
}

/// The four edge functions of a quad along one pixel row: value at the quad's first column and
/// step per pixel, in the Float precision of the inner loops.
struct EdgeRow {
    var c: (Float, Float, Float, Float)
    var a: (Float, Float, Float, Float)
}
