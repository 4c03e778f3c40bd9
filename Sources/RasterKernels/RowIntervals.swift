/// For each pixel row of a band, a few sorted, disjoint column intervals in preallocated memory.
///
/// Two uses in `BandWorker`:
/// - occlusion: the columns already covered by opaque pixels of quads nearer the viewer. Quads
///   are visited front to back; each one's visible pieces are what its row span leaves after
///   subtracting these intervals, and its own certainly-opaque columns are then added. When a
///   row would hold more than `capacity` intervals the narrowest is forgotten, which only means
///   drawing some hidden pixels (never skipping visible ones).
/// - painted columns, when drawing over a `Backdrop`: columns some quad has written this frame.
///   Forgetting one would be wrong there, so the caller checks `isFull(row:)` first and
///   resolves a full row itself (see `BandWorker`).
final class RowIntervals {
    static let capacity = 6
    private(set) var rowCount = 0
    private var starts: UnsafeMutablePointer<Int32>
    private var ends: UnsafeMutablePointer<Int32>
    private var counts: UnsafeMutablePointer<Int32>

    init() {
        starts = .allocate(capacity: 1); ends = .allocate(capacity: 1); counts = .allocate(capacity: 1)
    }

    deinit { starts.deallocate(); ends.deallocate(); counts.deallocate() }

    /// Forgets everything and makes room for `rows` rows (allocates only when growing).
    func reset(rows: Int) {
        if rows > rowCount {
            starts.deallocate(); ends.deallocate(); counts.deallocate()
            starts = .allocate(capacity: rows * RowIntervals.capacity)
            ends = .allocate(capacity: rows * RowIntervals.capacity)
            counts = .allocate(capacity: rows)
            rowCount = rows
        }
        counts.update(repeating: 0, count: rows)
    }

    /// Calls `body` with each part of `lo..<hi` in row `row` not yet covered, left to right.
    @inline(__always)
    func forEachVisible(row: Int, _ lo: Int, _ hi: Int, _ body: (Int, Int) -> Void) {
        let n = Int(counts[row])
        let s = starts + row * RowIntervals.capacity, e = ends + row * RowIntervals.capacity
        var cursor = lo
        for i in 0..<n {
            let a = Int(s[i]), b = Int(e[i])
            if b <= cursor { continue }
            if a >= hi { break }
            if a > cursor { body(cursor, a) }
            cursor = max(cursor, b)
            if cursor >= hi { return }
        }
        if cursor < hi { body(cursor, hi) }
    }

    /// Calls `body` with the pieces of `lo..<hi` in row `row`, left to right, each with whether
    /// it is covered.
    @inline(__always)
    func forEachPiece(row: Int, _ lo: Int, _ hi: Int, _ body: (Int, Int, Bool) -> Void) {
        var cursor = lo
        forEachVisible(row: row, lo, hi) { a, b in
            if a > cursor { body(cursor, a, true) }
            body(a, b, false)
            cursor = b
        }
        if cursor < hi { body(cursor, hi, true) }
    }

    /// True when the columns `lo..<hi` of row `row` are all inside intervals or all outside.
    func isUniform(row: Int, _ lo: Int, _ hi: Int) -> Bool {
        var pieces = 0
        forEachPiece(row: row, lo, hi) { _, _, _ in pieces += 1 }
        return pieces <= 1
    }

    /// True when row `row` holds no interval.
    @inline(__always)
    func isEmpty(row: Int) -> Bool { counts[row] == 0 }

    /// True when row `row` holds `capacity` intervals (the next `cover` may forget one).
    @inline(__always)
    func isFull(row: Int) -> Bool { Int(counts[row]) == RowIntervals.capacity }

    /// Makes `lo..<hi` the only interval of row `row`.
    func set(row: Int, _ lo: Int, _ hi: Int) {
        starts[row * RowIntervals.capacity] = Int32(lo)
        ends[row * RowIntervals.capacity] = Int32(hi)
        counts[row] = hi > lo ? 1 : 0
    }

    /// Marks columns `lo..<hi` of row `row` as covered.
    func cover(row: Int, _ lo: Int, _ hi: Int) {
        guard hi > lo else { return }
        let cap = RowIntervals.capacity
        let s = starts + row * cap, e = ends + row * cap
        var n = Int(counts[row])
        var a = Int32(lo), b = Int32(hi)
        // Merge every interval that overlaps or touches the new one, then insert in order.
        var i = 0
        while i < n {
            if e[i] >= a && s[i] <= b {
                a = min(a, s[i]); b = max(b, e[i])
                for j in i..<(n - 1) { s[j] = s[j + 1]; e[j] = e[j + 1] }
                n -= 1
            } else {
                i += 1
            }
        }
        var at = 0
        while at < n && s[at] < a { at += 1 }
        if n == cap {
            // Full: forget the narrowest of the existing ones and the new one.
            var narrowest = -1, width = b - a
            for j in 0..<n where e[j] - s[j] < width { narrowest = j; width = e[j] - s[j] }
            if narrowest < 0 { return }
            for j in narrowest..<(n - 1) { s[j] = s[j + 1]; e[j] = e[j + 1] }
            n -= 1
            if narrowest < at { at -= 1 }
        }
        var j = n
        while j > at { s[j] = s[j - 1]; e[j] = e[j - 1]; j -= 1 }
        s[at] = a; e[at] = b
        counts[row] = Int32(n + 1)
    }
}
