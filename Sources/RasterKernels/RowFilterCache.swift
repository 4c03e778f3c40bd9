/// One texture row filtered horizontally at a range of screen columns, as the separable path's
/// vertical pass reads it: per column the [B R] and [G A] channel pairs (value·256, two 16-bit
/// lanes in one `UInt32`) in two planes, so that 8 columns starting at any column are one
/// unaligned load per plane. Index 0 is the first column asked for.
struct FilteredRow {
    var rb: UnsafePointer<UInt32>
    var ag: UnsafePointer<UInt32>

    /// The [B R] pairs of the 8 columns from `k`.
    @inline(__always)
    func rb(_ k: Int) -> U16x16 { UnsafeRawPointer(rb + k).loadUnaligned(as: U16x16.self) }

    /// The [G A] pairs of the 8 columns from `k`.
    @inline(__always)
    func ag(_ k: Int) -> U16x16 { UnsafeRawPointer(ag + k).loadUnaligned(as: U16x16.self) }

    /// The same row from column `n` on.
    @inline(__always)
    func advanced(by n: Int) -> FilteredRow { FilteredRow(rb: rb + n, ag: ag + n) }
}

/// Horizontally filtered texture rows for the separable axis-aligned path, kept while one quad
/// is shaded: an axis-aligned quad's screen row reads the same two texture rows at every
/// column, and neighbouring screen rows share one of them (or both, when magnified), so each
/// texture row is filtered horizontally once per quad and run instead of once per screen row.
///
/// A filtered row holds, per screen column, the two 16-bit channel pairs ([B R] and [G A],
/// value·256) exactly as the single-pass loop computes them before its vertical step
/// (`FilteredRow`). A row is filtered over the caller's whole visible run, not only over the
/// piece it shades, so the pieces a run is split into (columns already painted this frame or
/// still showing the backdrop) all find it. Two slots; preallocated, grown when needed; one
/// cache per band worker.
final class RowFilterCache {
    /// Shorter runs go through the single-pass loop (filtering a row pays off when reused).
    static let minimumRun = 16
    /// Whole blocks of 8 are filtered: up to 7 columns past the end are written.
    private static let padding = 8

    private var capacity = 0
    /// Per slot: the [B R] plane, then the [G A] plane, `capacity + padding` columns each.
    private var slots: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>)
    /// Texture row, first column and end column each slot holds (row −1: empty).
    private var keys: ((row: Int, lo: Int, hi: Int), (row: Int, lo: Int, hi: Int)) = ((-1, 0, 0), (-1, 0, 0))
    /// The slot written least recently, reused first.
    private var older = 0

    init() {
        slots = (RowFilterCache.planes(columns: 0), RowFilterCache.planes(columns: 0))
    }

    deinit { slots.0.deallocate(); slots.1.deallocate() }

    /// Two planes of `columns + padding` entries, 64-byte aligned.
    private static func planes(columns: Int) -> UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer.allocate(byteCount: 2 * (columns + padding) * 4, alignment: 64)
            .bindMemory(to: UInt32.self, capacity: 2 * (columns + padding))
    }

    /// Forgets every row: call before shading another quad (or the same quad in a new frame).
    func reset() {
        keys = ((-1, 0, 0), (-1, 0, 0))
        older = 0
    }

    /// Filtered texture rows `top` and `top + stepY` of `s` for columns `run` (index 0 is its
    /// first column: the visible run the caller then shades piece by piece), computed only
    /// when not held already for those columns or more.
    func rows(_ s: QuadSampler, top: Int, run: Range<Int>) -> (FilteredRow, FilteredRow) {
        if run.count > capacity {
            slots.0.deallocate(); slots.1.deallocate()
            capacity = run.count
            slots = (RowFilterCache.planes(columns: capacity), RowFilterCache.planes(columns: capacity))
            reset()
        }
        let bottom = s.stepY > 0 ? top + 1 : top
        let a = slot(s, row: top, run: run, keep: -1)
        let b = bottom == top ? a : slot(s, row: bottom, run: run, keep: a)
        return (filteredRow(a, run.lowerBound), filteredRow(b, run.lowerBound))
    }

    /// Slot `i`'s planes from column `x` on.
    private func filteredRow(_ i: Int, _ x: Int) -> FilteredRow {
        let base = i == 0 ? slots.0 : slots.1
        let offset = x - (i == 0 ? keys.0.lo : keys.1.lo)
        return FilteredRow(rb: UnsafePointer(base + offset), ag: UnsafePointer(base + (capacity + RowFilterCache.padding) + offset))
    }

    /// The slot holding texture row `row` for (at least) columns `run`, filling the older one
    /// (never `keep`) when neither does.
    private func slot(_ s: QuadSampler, row: Int, run: Range<Int>, keep: Int) -> Int {
        let lo = run.lowerBound, hi = run.upperBound
        if keys.0.row == row && keys.0.lo <= lo && keys.0.hi >= hi { return 0 }
        if keys.1.row == row && keys.1.lo <= lo && keys.1.hi >= hi { return 1 }
        var i = older
        if i == keep { i = 1 - i }
        let base = i == 0 ? slots.0 : slots.1
        SpanShader.filterRow(s, texels: s.texels + row * s.stride, x0: lo, x1: hi,
                             rb: base, ag: base + (capacity + RowFilterCache.padding))
        if i == 0 { keys.0 = (row, lo, hi) } else { keys.1 = (row, lo, hi) }
        older = 1 - i
        return i
    }
}
