import CarouselCore
import RasterCore

/// A half-plane `a·x + b·y + c` evaluated at pixel centres `(x + 0.5, y + 0.5)`.
struct EdgeFunction {
    var a: Double, b: Double, c: Double
    @inline(__always) func value(x: Double, y: Double) -> Double { a * x + b * y + c }
}

/// How a quad's texels are addressed: picks the inner loop.
enum SamplingKind {
    /// Full homography: one divide per pixel (8-wide).
    case projective
    /// Parallelogram: texture coordinates step linearly along a row.
    case affine
    /// Axis-aligned scale + translate: the texture row is fixed along a screen row.
    case axisAligned
    /// 1:1 at an integer offset: texels are copied or blended, never filtered.
    case blit
}

/// A pixel row's part of a quad: `lo..<hi` holds every pixel with coverage > 0, and
/// `innerLo..<innerHi` (inside it, possibly empty) the pixels fully covered.
struct RowSpan {
    var lo: Int, hi: Int, innerLo: Int, innerHi: Int
}

/// The trivially copyable part of a prepared quad that the inner loops read (no references:
/// passing it by value costs no reference counting).
struct QuadSampler {
    var kind: SamplingKind
    /// The texture level sampled (the base texture or one of its mip levels); kept alive by
    /// the `Quad` the caller holds for the duration of `draw`.
    var texels: UnsafePointer<UInt32>
    var stride: Int
    var texWidth: Int, texHeight: Int
    /// Largest sample coordinate (texel-centre space) so that `floor + 1` is still inside (at
    /// most 32767, for the 16.16 fixed point below).
    var maxU: Float, maxV: Float
    /// The same limits in 16.16 fixed point, after rounding: the last texel pair's left texel
    /// with the largest weight of its right neighbour (0 for 1-texel-wide/high levels).
    var maxUFixed: Int32, maxVFixed: Int32
    /// Offset to the right and lower neighbour (0 for 1-texel-wide/high levels).
    var stepX: Int, stepY: Int
    /// Texture coordinates in texel-centre space of the sampled level at pixel (x, y):
    /// `u = (um · [x y 1]) / (wm · [x y 1])`, likewise `v` (pixel centres folded in).
    var um: (Double, Double, Double), vm: (Double, Double, Double), wm: (Double, Double, Double)
    var alpha: Float
    /// Coverage = Π clamp(edgeᵢ, 0, 1); each edge is a screen distance in pixels (softened to
    /// the texel footprint where the card is magnified) plus ½.
    var edges: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)
    /// Blit: texel = pixel + offset.
    var blitOffsetX: Int, blitOffsetY: Int
    /// The column texture coordinates are stepped from: the quad's leftmost column (or 0), the
    /// same whatever the clip, so partial redraws match full ones bit for bit.
    var originX: Int
    /// The column after the quad's rightmost one (the end of the columns `originX` steps over).
    var endX: Int
    /// Axis-aligned: per pixel column x, the left texel column `columnTexel[x]` and the
    /// weight of its right neighbour `columnWeight[x]` (0…256, in both 16-bit halves); filled by
    /// `ColumnTable`.
    var columnTexel: UnsafePointer<Int32>, columnWeight: UnsafePointer<UInt32>
    /// Axis-aligned: the `BlockShape` of the 8 columns from each column (`ColumnTable`).
    var columnShape: UnsafePointer<BlockShape>
    /// x86-64-v2: the `halves4` blocks' byte indices, 8 per column (`ColumnTable.spread`).
    var columnSpread: UnsafePointer<UInt32>
    /// Texel rectangles of the sampled level known fully opaque (`Texture.opaqueRegions`;
    /// empty rectangles when unknown, as for mip levels): opaque runs of axis-aligned quads
    /// and opaque 1:1 rows (copied without blending).
    var opaque: (TexelRect, TexelRect)
    /// Affine and projective: the band worker's scratch for the chunked loop
    /// (`SpanShader.general`); nil selects the single-pass loop.
    var gather: GatherBuffers? = nil
    /// Projective quads with vertical sides, in the chunked loop: 1/w and u per screen column
    /// (`ProjectiveColumns`); nil: computed per pixel.
    var columns: ProjectiveColumnBuffers? = nil
    /// Projective quads with horizontal top and bottom, in the chunked loop: v and w, the same
    /// along each row (their steps ±0), are worked out once per row.
    var rowDepth = false

    /// True when every texel a bilinear sample of texture rows `rowI` and `rowI + 1` between
    /// texel columns `c0` and `c1` (either order) plus their right neighbours can read is opaque.
    @inline(__always)
    func isOpaque(row rowI: Int, columns c0: Int, _ c1: Int) -> Bool {
        let xs = min(c0, c1)..<(max(c0, c1) + 2)
        let last = stepY > 0 ? rowI + 1 : rowI
        return (opaque.0.contains(row: rowI, xs) && opaque.0.contains(row: last, xs))
            || (opaque.1.contains(row: rowI, xs) && opaque.1.contains(row: last, xs))
    }
}

/// Everything the compositor needs about one quad, built once per quad per frame.
struct PreparedQuad {
    var sampler: QuadSampler
    /// Half-planes (≥ 0 inside, at pixel centres) of the screen region whose samples are
    /// certainly opaque, when the quad can hide what lies behind it.
    var occluder: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)?
    /// A second such region (the texture's other opaque rectangle: a card with rounded corners
    /// has two, a cross), so that only the corners are left out.
    var secondOccluder: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)?
    /// Rows the quad can touch (already clipped).
    var rows: Range<Int>
    /// Pixel columns allowed (the bounds, clipped).
    var columns: Range<Int>
    /// The mip level sampled (0 = the texture itself).
    var level: Int
    /// Upright quads (every edge horizontal or vertical): the rows whose span and occluded
    /// columns are the same, and those, worked out once.
    var upright = UprightRows.none

    /// The steepest edge ramp: 1 / (narrowest ramp in pixels).
    static let steepestEdge = 4.0 / 3

    /// Prepares `quad` for drawing inside `clip`, or nil when nothing of it can show (culled,
    /// transparent, degenerate, off-clip).
    init?(_ quad: Quad, clip: PixelRect, filter: TextureFilter) {
        let alpha = quad.alpha.isFinite ? min(1, max(0, quad.alpha)) : 0
        guard alpha > 0.5 / 255, quad.corners.count == 4 else { return nil }
        let p = quad.corners
        for c in p where !(c.x.isFinite && c.y.isFinite && abs(c.x) < 1e7 && abs(c.y) < 1e7) { return nil }

        // Winding and convexity. Corners are TL, TR, BR, BL: a card seen from the front winds
        // clockwise on a y-down screen, which is a positive shoelace sum here.
        var crossSigns = 0, area2 = 0.0
        for i in 0..<4 {
            let a = p[i], b = p[(i + 1) % 4], c = p[(i + 2) % 4]
            let z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            crossSigns += z > 1e-9 ? 1 : (z < -1e-9 ? -1 : 0)
            area2 += a.x * b.y - b.x * a.y
        }
        guard abs(crossSigns) == 4, abs(area2) > 1e-6 else { return nil }  // bow-tie or flat
        let orientation: Double = area2 > 0 ? 1 : -1
        if orientation < 0 && quad.cullsBackFace { return nil }

        let base = quad.texture
        let tw = Double(base.width), th = Double(base.height)
        let sx = p[0].x - p[1].x + p[2].x - p[3].x, sy = p[0].y - p[1].y + p[2].y - p[3].y
        let isAffine = abs(sx) < 1e-4 && abs(sy) < 1e-4
        // Texture (edge coordinates) → screen, then its inverse.
        let forward: Homography
        if isAffine {
            forward = Homography(((p[1].x - p[0].x) / tw, (p[3].x - p[0].x) / th, p[0].x,
                                  (p[1].y - p[0].y) / tw, (p[3].y - p[0].y) / th, p[0].y, 0, 0, 1))
        } else {
            guard let h = Homography.rectToQuad(width: tw, height: th, p) else { return nil }
            forward = h
        }
        guard var inverse = forward.inverse else { return nil }
        let cx = (p[0].x + p[1].x + p[2].x + p[3].x) / 4, cy = (p[0].y + p[1].y + p[2].y + p[3].y) / 4
        do {  // w > 0 on the quad, and w ≈ 1 at its centre (Float precision downstream).
            let w = inverse.m.6 * cx + inverse.m.7 * cy + inverse.m.8
            guard abs(w) > 1e-300 else { return nil }
            let s = 1 / w
            let m = inverse.m
            inverse = Homography((m.0 * s, m.1 * s, m.2 * s, m.3 * s, m.4 * s, m.5 * s, m.6 * s, m.7 * s, m.8 * s))
            if isAffine { inverse.m.6 = 0; inverse.m.7 = 0; inverse.m.8 = 1 }
            // Vertical left and right sides (a card turned about the vertical axis): u and w do
            // not depend on y, exactly, rather than up to the solve's rounding (about 1e-17),
            // so the loops can work them out per column (`ProjectiveColumns`). (Both pairs of
            // sides parallel would make the quad affine.)
            if !isAffine && p[0].x == p[3].x && p[1].x == p[2].x { inverse.m.1 = 0; inverse.m.7 = 0 }
            // Horizontal top and bottom (turned about the horizontal axis): v and w do not
            // depend on x, so the loops work them out once per row.
            if !isAffine && p[0].y == p[1].y && p[3].y == p[2].y { inverse.m.3 = 0; inverse.m.6 = 0 }
        }
        let inv = inverse.m
        for c in p where inv.6 * c.x + inv.7 * c.y + inv.8 <= 0 { return nil }  // crosses the horizon

        // Rows and columns it may touch: corners' box + 1 px (`Quad.bounds`, what damage
        // tracking redraws), clipped. Columns too: the edge ramps of a magnified card and the
        // anti-aliasing beyond an acute corner reach further, and a clipped redraw must give
        // the pixels a whole frame gives.
        let box = PixelRect.covering(p, margin: 1).intersection(clip)
        guard !box.isEmpty else { return nil }
        rows = box.y..<box.maxY
        columns = box.x..<box.maxX

        // Kind.
        let axisAligned = isAffine && abs(inv.1) < 1e-12 && abs(inv.3) < 1e-12
        let unitScale = axisAligned && abs(p[1].x - p[0].x - tw) < 1e-9 && abs(p[3].y - p[0].y - th) < 1e-9
        let integral = abs(p[0].x - p[0].x.rounded()) < 1e-9 && abs(p[0].y - p[0].y.rounded()) < 1e-9
        let kind: SamplingKind
        if unitScale && integral {
            kind = .blit
        } else if axisAligned {
            kind = .axisAligned
        } else {
            kind = isAffine ? .affine : .projective
        }

        // Mip level from the least-minified point of the quad (see docs/compositor.md).
        var level = 0
        if filter == .mipmap && kind != .blit && base.mipLevelCount > 0 {
            var scale = Double.infinity
            for c in p {
                let w = inv.6 * c.x + inv.7 * c.y + inv.8
                let u = (inv.0 * c.x + inv.1 * c.y + inv.2) / w, v = (inv.3 * c.x + inv.4 * c.y + inv.5) / w
                let dudx = (inv.0 - u * inv.6) / w, dudy = (inv.1 - u * inv.7) / w
                let dvdx = (inv.3 - v * inv.6) / w, dvdy = (inv.4 - v * inv.7) / w
                scale = min(scale, abs(dudx * dvdy - dudy * dvdx).squareRoot())
            }
            // floor(log₂ scale): at that level a pixel spans 1–2 texels.
            while scale.isFinite && scale >= 2 && level < base.mipLevelCount { scale /= 2; level += 1 }
        }
        self.level = level
        let tex = level == 0 ? base : base.mipLevel(level)
        let ls = Double(tex.width) / tw, lt = Double(tex.height) / th

        // Coverage edges. Across each edge the fade is one texel wide, as if the texture had a
        // transparent border and were filtered (the reference's semantics), but never narrower
        // than ¾ pixel, so minified edges stay anti-aliased instead of stair-stepping.
        func edge(_ i: Int) -> EdgeFunction {
            let a = p[i], b = p[(i + 1) % 4]
            let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let nx = -(b.y - a.y) / len * orientation, ny = (b.x - a.x) / len * orientation
            // Texels per pixel across the edge, at its midpoint.
            let mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2
            let w = inv.6 * mx + inv.7 * my + inv.8
            let u = (inv.0 * mx + inv.1 * my + inv.2) / w, v = (inv.3 * mx + inv.4 * my + inv.5) / w
            let dudn = ((inv.0 - u * inv.6) * nx + (inv.1 - u * inv.7) * ny) / w
            let dvdn = ((inv.3 - v * inv.6) * nx + (inv.4 - v * inv.7) * ny) / w
            let texelsPerPixel = (i % 2 == 0) ? abs(dvdn) : abs(dudn)  // top/bottom: v, sides: u
            // Ramp width in pixels = 1 texel, kept between ¾ px (minified: still anti-aliased)
            // and the texel's size on screen (magnified: soft like a filtered texel).
            let soft = min(PreparedQuad.steepestEdge, max(1e-3, texelsPerPixel))
            // value at pixel centre (x + ½, y + ½)
            let c0 = -(nx * a.x + ny * a.y)
            return EdgeFunction(a: nx * soft, b: ny * soft, c: (c0 + 0.5 * nx + 0.5 * ny) * soft + 0.5)
        }
        sampler = QuadSampler(
            kind: kind, texels: UnsafePointer(tex.pixels), stride: tex.width,
            texWidth: tex.width, texHeight: tex.height,
            maxU: PreparedQuad.coordinateLimit(tex.width), maxV: PreparedQuad.coordinateLimit(tex.height),
            maxUFixed: PreparedQuad.fixedLimit(tex.width), maxVFixed: PreparedQuad.fixedLimit(tex.height),
            stepX: tex.width > 1 ? 1 : 0, stepY: tex.height > 1 ? tex.width : 0,
            um: (ls * inv.0 - 0.5 * inv.6, ls * inv.1 - 0.5 * inv.7, ls * inv.2 - 0.5 * inv.8),
            vm: (lt * inv.3 - 0.5 * inv.6, lt * inv.4 - 0.5 * inv.7, lt * inv.5 - 0.5 * inv.8),
            wm: (inv.6, inv.7, inv.8),
            alpha: Float(alpha),
            edges: (edge(0), edge(1), edge(2), edge(3)),
            blitOffsetX: kind == .blit ? -Int(p[0].x.rounded()) : 0,
            blitOffsetY: kind == .blit ? -Int(p[0].y.rounded()) : 0,
            originX: max(0, PixelRect.covering(p, margin: 1).x), endX: PixelRect.covering(p, margin: 1).maxX,
            columnTexel: ColumnTable.unset.texel, columnWeight: ColumnTable.unset.weight,
            columnShape: ColumnTable.unset.shape, columnSpread: ColumnTable.unset.spread,
            opaque: PreparedQuad.opaquePair(level == 0 && kind != .projective && kind != .affine ? base.opaqueRegions : []))

        // Occluders: the opaque texel rectangles (largest first), shrunk by the filter's reach,
        // mapped to screen.
        func halfPlanes(of region: TexelRect) -> (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)? {
            // Texels a sample can reach beyond its own (bilinear footprint; a mip texel spans
            // 2^level base texels), plus slack for the Float coordinates of the inner loop.
            let reach = level == 0 ? 1.0 : Double(2 << level) + 1
            let u0 = region.x0 == 0 ? 0 : Double(region.x0) + reach
            let u1 = region.x1 == base.width ? tw : Double(region.x1) - reach
            let v0 = region.y0 == 0 ? 0 : Double(region.y0) + reach
            let v1 = region.y1 == base.height ? th : Double(region.y1) - reach
            guard u1 > u0 && v1 > v0 else { return nil }
            let q = [Point2(u0, v0), Point2(u1, v0), Point2(u1, v1), Point2(u0, v1)].map { forward.apply($0) }
            func half(_ i: Int) -> EdgeFunction {
                let a = q[i], b = q[(i + 1) % 4]
                let nx = -(b.y - a.y) * orientation, ny = (b.x - a.x) * orientation
                return EdgeFunction(a: nx, b: ny, c: -(nx * a.x + ny * a.y) + 0.5 * nx + 0.5 * ny)
            }
            return (half(0), half(1), half(2), half(3))
        }
        let regions = alpha >= 1 ? base.opaqueRegions.sorted { ($0.x1 - $0.x0) * ($0.y1 - $0.y0) > ($1.x1 - $1.x0) * ($1.y1 - $1.y0) } : []
        let occluders = regions.prefix(2).compactMap(halfPlanes(of:))
        occluder = occluders.first
        secondOccluder = occluders.count > 1 ? occluders[1] : nil
        upright = UprightRows(edges: sampler.edges, occluders: (occluder, secondOccluder), rows: rows, columns: columns)
    }

    /// Texture coordinates are clamped to this side's texels; beyond 32768 texels (far larger
    /// than any card) the rest is not reached: the loops' 16.16 fixed point ends there.
    static let largestSampledSide = 32768

    /// The largest sample coordinate along a side of `count` texels (see `QuadSampler.maxU`).
    static func coordinateLimit(_ count: Int) -> Float {
        count > 1 ? Float(min(count, largestSampledSide) - 1) - 1.0 / 512 : 0
    }

    /// `coordinateLimit` in 16.16 fixed point: left texel `count − 2`, fraction 255/256.
    static func fixedLimit(_ count: Int) -> Int32 {
        count > 1 ? Int32((min(count, largestSampledSide) - 1) * 65536 - 1) : 0
    }

    /// Up to two rectangles as a pair (empty ones where there are fewer).
    static func opaquePair(_ regions: [TexelRect]) -> (TexelRect, TexelRect) {
        let none = TexelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        return (regions.first ?? none, regions.count > 1 ? regions[1] : none)
    }

    /// The pixels of row `y` the quad touches, clipped to `columns`, or nil.
    func span(row y: Int) -> RowSpan? {
        let s = sampler
        if s.kind == .blit {
            let x0 = max(columns.lowerBound, -s.blitOffsetX), x1 = min(columns.upperBound, s.texWidth - s.blitOffsetX)
            let ty = y + s.blitOffsetY
            guard x1 > x0, ty >= 0, ty < s.texHeight else { return nil }
            return RowSpan(lo: x0, hi: x1, innerLo: x0, innerHi: x1)
        }
        if upright.rows.contains(y) { return upright.span }
        var bounds = SpanBounds()
        let yc = Double(y)
        guard bounds.apply(s.edges.0, row: yc), bounds.apply(s.edges.1, row: yc),
              bounds.apply(s.edges.2, row: yc), bounds.apply(s.edges.3, row: yc) else { return nil }
        return bounds.span(columns: columns)
    }

    /// The columns of row `y` (within `inner`) whose pixels are certainly opaque once drawn: the
    /// occluders' columns, both when they overlap or touch, else the wider.
    func occludedColumns(row y: Int, inner: Range<Int>) -> Range<Int>? {
        guard let first = occluder, !inner.isEmpty else { return nil }
        let a = columns(of: first, steady: upright.occluded.0, row: y, inner: inner)
        guard let second = secondOccluder, let b = columns(of: second, steady: upright.occluded.1, row: y, inner: inner) else {
            return a
        }
        guard let a else { return b }
        if a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound {
            return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
        }
        return a.count >= b.count ? a : b
    }

    /// The columns of row `y` (within `inner`) inside the occluder `o`; `steady`: its rows worked
    /// out once (`UprightRows`).
    private func columns(of o: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction), steady: UprightRows.Occluded,
                         row y: Int, inner: Range<Int>) -> Range<Int>? {
        var lo = Double(inner.lowerBound), hi = Double(inner.upperBound - 1)
        if steady.rows.contains(y) {
            lo = max(lo, steady.lo)
            hi = min(hi, steady.hi)
            return hi >= lo ? Int(lo)..<(Int(hi) + 1) : nil
        }
        let yc = Double(y)
        func apply(_ e: EdgeFunction) -> Bool {
            if SpanBounds.isHorizontal(e) { return OccluderBounds.inside(e, row: yc) }
            OccluderBounds.apply(e, row: yc, lo: &lo, hi: &hi)
            return true
        }
        guard apply(o.0), apply(o.1), apply(o.2), apply(o.3), hi >= lo else { return nil }
        return Int(lo)..<(Int(hi) + 1)
    }
}

/// What the coverage edges say about one pixel row, edge by edge (`PreparedQuad.span`): pixel x
/// is drawn when every edge's value is > 0 (lo < x < hi), and fully covered when every one is
/// ≥ 1 (inLo ≤ x ≤ inHi). The bounds are kept within ±10⁹.
struct SpanBounds {
    /// An edge whose `a` is this close to 0 is horizontal: it bounds rows, not columns.
    static let horizontalSlope = 1e-12
    /// A horizontal edge's value below which no pixel of the row is fully covered.
    static let interiorValue = 1 - 1e-7

    var lo = -1.0e9, hi = 1.0e9, inLo = -1.0e9, inHi = 1.0e9

    /// True when `e` bounds rows only (`horizontalSlope`).
    @inline(__always)
    static func isHorizontal(_ e: EdgeFunction) -> Bool { abs(e.a) < horizontalSlope }

    /// Narrows the bounds by edge `e` on pixel row `yc`; false when the row lies outside it.
    @inline(__always)
    mutating func apply(_ e: EdgeFunction, row yc: Double) -> Bool {
        let k = e.b * yc + e.c
        if SpanBounds.isHorizontal(e) {
            if k <= 0 { return false }
            if k < SpanBounds.interiorValue { inLo = 1.0e9; inHi = -1.0e9 }
            return true
        }
        let t0 = -k / e.a, t1 = (1 - k) / e.a
        if e.a > 0 { lo = max(lo, t0); inLo = max(inLo, t1 - 1e-7) } else { hi = min(hi, t0); inHi = min(inHi, t1 + 1e-7) }
        return true
    }

    /// The pixels of `columns` these bounds leave, or nil.
    @inline(__always)
    func span(columns: Range<Int>) -> RowSpan? {
        @inline(__always) func int(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
            SpanShader.int(v, rule, limit: 1.0e9)
        }
        let x0 = max(columns.lowerBound, int(lo, .down))
        let x1 = min(columns.upperBound, int(hi, .up) + 1)
        guard x1 > x0 else { return nil }
        var i0 = int(inLo, .up), i1 = int(inHi, .down) + 1
        i0 = max(i0, x0); i1 = min(i1, x1)
        if i1 <= i0 { i0 = x0; i1 = x0 }
        return RowSpan(lo: x0, hi: x1, innerLo: i0, innerHi: i1)
    }
}

/// The occluder's half-planes on one pixel row (`PreparedQuad.occludedColumns`): pixel x is
/// certainly opaque when every value is ≥ 10⁻⁷.
enum OccluderBounds {
    /// Horizontal half-plane `e`: true when row `yc` lies inside it.
    @inline(__always)
    static func inside(_ e: EdgeFunction, row yc: Double) -> Bool { e.b * yc + e.c >= 1e-7 }

    /// Narrows the columns `lo...hi` by the half-plane `e` (not horizontal) on row `yc`.
    @inline(__always)
    static func apply(_ e: EdgeFunction, row yc: Double, lo: inout Double, hi: inout Double) {
        let t = -(e.b * yc + e.c) / e.a
        if e.a > 0 { lo = max(lo, (t + 1e-7).rounded(.up)) } else { hi = min(hi, (t - 1e-7).rounded(.down)) }
    }
}
