import CarouselCore
import CRasterSupport
import RasterCore

/// A run of one row of one quad left visible by the occlusion pass.
struct SpanRecord {
    var y: Int32, lo: Int32, hi: Int32, innerLo: Int32, innerHi: Int32

    /// Columns `lo..<hi` of row `y`, a piece of the row span `span`.
    init(y: Int, _ lo: Int, _ hi: Int, _ span: RowSpan) {
        self.y = Int32(y); self.lo = Int32(lo); self.hi = Int32(hi)
        innerLo = Int32(span.innerLo); innerHi = Int32(span.innerHi)
    }
}

/// One band's scratch and its two passes: front to back to find what is visible, then back
/// to front to shade it.
final class BandWorker {
    private let occlusion = RowIntervals()
    /// Over a backdrop: the columns of each row some quad has written this frame.
    private let painted = RowIntervals()
    private let columnTable = ColumnTable()
    private let rowCache = RowFilterCache()
    private let gatherScratch = GatherScratch()
    private let projectiveColumns = ProjectiveColumns()
    private var spans: [SpanRecord] = []
    private var ranges: [Range<Int>] = []
    private(set) var shadedPixels = 0
    /// False: affine and projective runs go through the single-pass loop (`SpanShader.filtered`)
    /// instead of the chunked two-pass one (`SpanShader.general`); for tests comparing the two.
    var chunkedLoop = true
    /// False: projective quads with vertical sides compute 1/w and u per pixel instead of per
    /// column (`ProjectiveColumns`), and those with horizontal top and bottom 1/w and v per
    /// pixel instead of per row; for tests comparing the two.
    var depthShortcuts = true

    func draw(_ quads: [PreparedQuad], rows: Range<Int>, columns: Range<Int>, pixels: UnsafeMutablePointer<UInt32>,
              stride: Int, occlusion useOcclusion: Bool, backdrop: Backdrop?) {
        spans.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        ranges.reserveCapacity(quads.count)
        occlusion.reset(rows: rows.count)
        for _ in quads { ranges.append(0..<0) }
        let occ = occlusion
        // Appended to as a local (moved out of the property and back, no copy): appending to
        // the property from the closure below paid a dynamic exclusivity check per record.
        var spans: [SpanRecord] = []
        swap(&spans, &self.spans)
        defer { swap(&spans, &self.spans) }
        for qi in quads.indices.reversed() {
            let q = quads[qi]
            let start = spans.count
            // A quad outside this band has an empty overlap (lower bound past the upper one).
            let top = max(q.rows.lowerBound, rows.lowerBound)
            let ys = top..<max(top, min(q.rows.upperBound, rows.upperBound))
            for y in ys {
                guard let sp = q.span(row: y) else { continue }
                let r = y - rows.lowerBound
                var visible = false
                if occ.isEmpty(row: r) {
                    // Nothing in front on this row (the common case): the whole span, without
                    // the interval walk and its closure.
                    spans.append(SpanRecord(y: y, sp.lo, sp.hi, sp))
                    visible = true
                } else {
                    occ.forEachVisible(row: r, sp.lo, sp.hi) { a, b in
                        spans.append(SpanRecord(y: y, a, b, sp))
                        visible = true
                    }
                }
                // A row hidden whole hides the quad's opaque columns too: nothing to add. Nor
                // does the last quad visited, the backmost: nothing behind it reads them.
                if useOcclusion, visible, qi > 0, let hidden = q.occludedColumns(row: y, inner: sp.innerLo..<sp.innerHi) {
                    occ.cover(row: r, hidden.lowerBound, hidden.upperBound)
                }
            }
            ranges[qi] = start..<spans.count
        }
        if backdrop != nil { painted.reset(rows: rows.count) }
        let painted = self.painted
        var shaded = 0
        spans.withUnsafeBufferPointer { all in
            for qi in quads.indices where !ranges[qi].isEmpty {
                var sampler = quads[qi].sampler
                // The columns this quad's visible runs span in the band.
                func visibleColumns() -> Range<Int> {
                    var lo = Int.max, hi = Int.min
                    for i in ranges[qi] { lo = min(lo, Int(all[i].lo)); hi = max(hi, Int(all[i].hi)) }
                    return lo..<hi
                }
                if sampler.kind == .axisAligned {
                    columnTable.fill(&sampler, columns: visibleColumns())
                    rowCache.reset()
                }
                // Affine and projective quads take the chunked loop (it reads texel pairs, so
                // textures one texel wide stay with the single-pass loop).
                if chunkedLoop && (sampler.kind == .affine || sampler.kind == .projective) && sampler.stepX == 1 {
                    sampler.gather = gatherScratch.buffers
                    if depthShortcuts && ProjectiveColumns.applies(to: sampler) {
                        projectiveColumns.fill(&sampler, columns: visibleColumns())
                    }
                    sampler.rowDepth = depthShortcuts && sampler.kind == .projective && sampler.vm.0 == 0 && sampler.wm.0 == 0
                }
                // Immutable from here: a variable would be copied (memcpy) for every call below.
                let s = sampler
                for i in ranges[qi] {
                    let sp = all[i]
                    let y = Int(sp.y), lo = Int(sp.lo), hi = Int(sp.hi)
                    let inner = Int(sp.innerLo)..<max(Int(sp.innerLo), Int(sp.innerHi))
                    // The separable path filters texture rows over the whole run at once,
                    // however it is split into pieces below, and sets up the row once.
                    let run = lo..<max(lo, hi)
                    var setup = SeparableRow?.none
                    let row = pixels + y * stride
                    shaded += hi - lo
                    guard let backdrop else {
                        shade(s, row: row, y: y, lo, hi, inner: inner, run: run, setup: &setup, onto: nil)
                        continue
                    }
                    // Pixels no quad wrote yet this frame are blended onto the backdrop itself.
                    let r = y - rows.lowerBound
                    if painted.isEmpty(row: r) {
                        // The first run on this row (the common case): all of it.
                        shade(s, row: row, y: y, lo, hi, inner: inner, run: run, setup: &setup, onto: backdrop)
                        painted.set(row: r, lo, hi)
                        continue
                    }
                    if painted.isFull(row: r) {
                        painted.forEachVisible(row: r, columns.lowerBound, columns.upperBound) { a, b in
                            backdrop.fill(row: row, y: y, x0: a, x1: b)
                        }
                        painted.set(row: r, columns.lowerBound, columns.upperBound)
                    }
                    if s.gather != nil && !painted.isUniform(row: r, lo, hi) {
                        // Affine and projective runs partly over pixels drawn this frame: the
                        // backdrop goes into the others first and the run is one call (a call
                        // per piece paid the loop's setup for pieces of a pixel or two where
                        // cards meet). Bit-identical: blending onto the backdrop written into
                        // the frame gives what blending onto the backdrop itself gives.
                        painted.forEachVisible(row: r, lo, hi) { a, b in backdrop.fill(row: row, y: y, x0: a, x1: b) }
                        shade(s, row: row, y: y, lo, hi, inner: inner, run: run, setup: &setup, onto: nil)
                    } else {
                        painted.forEachPiece(row: r, lo, hi) { a, b, written in
                            shade(s, row: row, y: y, a, b, inner: inner, run: run, setup: &setup, onto: written ? nil : backdrop)
                        }
                    }
                    painted.cover(row: r, lo, hi)
                }
            }
        }
        if let backdrop {
            for y in rows {
                painted.forEachVisible(row: y - rows.lowerBound, columns.lowerBound, columns.upperBound) { a, b in
                    backdrop.fill(row: pixels + y * stride, y: y, x0: a, x1: b)
                }
            }
        }
        shadedPixels = shaded
    }

    /// Pixels `x0..<x1` of row `y` of one quad: anti-aliased edges outside `inner`, the fully
    /// covered pixels inside. `onto`: the backdrop these pixels show so far (nothing drawn on
    /// them yet), or nil to blend onto the row as it is. `run`: the visible run these pixels
    /// are a piece of. Axis-aligned pieces with a long fully covered part (or a long row
    /// without one: a top or bottom outline) take the separable path, their partly covered
    /// columns included; `setup` is that path's row, made by the first piece that needs it.
    @inline(__always)
    private func shade(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, _ x0: Int, _ x1: Int,
                       inner: Range<Int>, run: Range<Int>, setup: inout SeparableRow?, onto backdrop: Backdrop?) {
        let inLo = min(x1, max(x0, inner.lowerBound)), inHi = max(inLo, min(x1, inner.upperBound))
        if s.gather != nil {
            // Affine and projective: edges and interior in one call.
            SpanShader.general(s, row: row, y: y, x0: x0, x1: x1, inner: inLo..<inHi, under: backdrop?.source(row: y) ?? .frame)
            return
        }
        // (A short piece of a long run takes the separable path too: the run's rows are filtered
        // for its other pieces anyway, and the single-pass loop's setup costs more than its few
        // pixels; cards behind a card with rounded corners show only at its corners.)
        if s.kind == .axisAligned && (setup != nil || inner.count >= RowFilterCache.minimumRun
                                      || (inner.isEmpty && x1 - x0 >= RowFilterCache.minimumRun)) {
            if setup == nil { setup = SpanShader.separableRow(s, y: y, run: run, cache: rowCache) }
            SpanShader.separable(s, setup.unsafelyUnwrapped, row, x0, x1, interior: inLo..<inHi,
                                 under: backdrop?.source(row: y) ?? .frame)
            return
        }
        if inLo > x0 { shadeEdge(s, row: row, y: y, x0: x0, x1: inLo, onto: backdrop) }
        if inHi > inLo { shadeInterior(s, row: row, y: y, x0: inLo, x1: inHi, onto: backdrop) }
        if x1 > inHi { shadeEdge(s, row: row, y: y, x0: inHi, x1: x1, onto: backdrop) }
    }

    @inline(__always)
    private func shadeEdge(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                           onto backdrop: Backdrop?) {
        SpanShader.shade(s, row: row, y: y, x0: x0, x1: x1, coverage: true, under: backdrop?.source(row: y) ?? .frame)
    }

    /// Fully covered pixels: opaque 1:1 rows are copied; the rest is shaded without coverage.
    @inline(__always)
    private func shadeInterior(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                               onto backdrop: Backdrop?) {
        if s.kind == .blit && s.alpha >= 1 {
            let ty = y + s.blitOffsetY, tx = x0 + s.blitOffsetX
            let xs = tx..<(tx + x1 - x0)
            if s.opaque.0.contains(row: ty, xs) || s.opaque.1.contains(row: ty, xs) {
                raster_copy32(row + x0, s.texels + ty * s.stride + tx, x1 - x0)
                return
            }
        }
        SpanShader.shade(s, row: row, y: y, x0: x0, x1: x1, coverage: false, under: backdrop?.source(row: y) ?? .frame)
    }
}
