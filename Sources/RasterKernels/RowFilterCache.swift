/// Horizontally filtered texture rows for the separable axis-aligned path, kept while one quad
/// is shaded: an axis-aligned quad's screen row reads the same two texture rows at every
/// column, and neighbouring screen rows share one of them (or both, when magnified), so each
/// texture row is filtered horizontally once per quad and run instead of once per screen row.
///
/// A filtered row holds, per screen column, the two 16-bit channel pairs ([B R] and [G A],
/// value·256) exactly as the single-pass loop computes them before its vertical step, in
/// blocks of 8 columns: `U16x16` [B R] pairs for 8 columns, then `U16x16` [G A] pairs. Two
/// slots; preallocated, grown when needed; one cache per band worker.
final class RowFilterCache {
    /// Shorter runs go through the single-pass loop (filtering a row pays off when reused).
    static let minimumRun = 16

    private var capacity = 0
    private var slots: (UnsafeMutablePointer<U16x16>, UnsafeMutablePointer<U16x16>)
    /// Texture row, first column and end column each slot holds (row −1: empty).
    private var keys: ((row: Int, lo: Int, hi: Int), (row: Int, lo: Int, hi: Int)) = ((-1, 0, 0), (-1, 0, 0))
    /// The slot written least recently, reused first.
    private var older = 0

    init() {
        slots = (.allocate(capacity: 2), .allocate(capacity: 2))
    }

    deinit { slots.0.deallocate(); slots.1.deallocate() }

    /// Forgets every row: call before shading another quad (or the same quad in a new frame).
    func reset() {
        keys = ((-1, 0, 0), (-1, 0, 0))
        older = 0
    }

    /// Filtered texture rows `top` and `top + stepY` of `s` for columns `x0..<x1`, computed
    /// only when not held already.
    func rows(_ s: QuadSampler, top: Int, x0: Int, x1: Int) -> (UnsafePointer<U16x16>, UnsafePointer<U16x16>) {
        let blocks = (x1 - x0 + 7) / 8
        if blocks * 8 > capacity {
            slots.0.deallocate(); slots.1.deallocate()
            capacity = blocks * 8
            slots = (.allocate(capacity: 2 * blocks), .allocate(capacity: 2 * blocks))
            reset()
        }
        let bottom = s.stepY > 0 ? top + 1 : top
        let a = slot(s, row: top, x0: x0, x1: x1, keep: -1)
        let b = bottom == top ? a : slot(s, row: bottom, x0: x0, x1: x1, keep: a)
        return (UnsafePointer(a == 0 ? slots.0 : slots.1), UnsafePointer(b == 0 ? slots.0 : slots.1))
    }

    /// The slot holding texture row `row` for `x0..<x1`, filling the older one (never `keep`)
    /// when neither does.
    private func slot(_ s: QuadSampler, row: Int, x0: Int, x1: Int, keep: Int) -> Int {
        if keys.0.row == row && keys.0.lo == x0 && keys.0.hi >= x1 { return 0 }
        if keys.1.row == row && keys.1.lo == x0 && keys.1.hi >= x1 { return 1 }
        var i = older
        if i == keep { i = 1 - i }
        SpanShader.filterRow(s, texels: s.texels + row * s.stride, x0: x0, x1: x1, into: i == 0 ? slots.0 : slots.1)
        if i == 0 { keys.0 = (row, x0, x1) } else { keys.1 = (row, x0, x1) }
        older = 1 - i
        return i
    }
}
