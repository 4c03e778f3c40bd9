/// The rows of an upright quad (every edge horizontal or vertical on screen: a card scaled,
/// moved, mirrored or turned by 90°) whose span and occluded columns are the same, worked out
/// once per quad instead of once per row.
///
/// A vertical edge (`b` exactly 0) gives every row the same bound; a horizontal one only decides
/// whether a row is drawn and whether its pixels can be fully covered. On the rows where every
/// horizontal edge's value reaches `SpanBounds.interiorValue` (all but the first and last one or
/// two) the span is therefore the one the vertical edges alone give, and likewise for the
/// occluder's half-planes. Those row ranges are found with the per-row tests themselves (an
/// edge's value is monotonic in the row, in floating point too), so `PreparedQuad.span` and
/// `occludedColumns` return exactly what they compute per row; other rows still take the
/// per-row computation. Small (it is copied with every `PreparedQuad`).
struct UprightRows {
    /// Rows whose span is `span`.
    var rows: Range<Int> = 0..<0
    var span = RowSpan(lo: 0, hi: 0, innerLo: 0, innerHi: 0)
    /// For each of the quad's two occluders: the rows whose occluded columns are the inner
    /// columns limited to the same bounds, and those.
    var occluded = (Occluded(), Occluded())

    /// Rows of one occluder whose occluded columns are the inner ones within `lo...hi`.
    struct Occluded {
        var rows: Range<Int> = 0..<0
        var lo = 0.0, hi = 0.0
    }

    /// Nothing: every row takes the per-row computation.
    static let none = UprightRows()

    private init() {}

    /// The steady rows among `rows` of a quad with these coverage edges and occluder, clipped to
    /// `columns`; none when some edge is neither horizontal nor vertical.
    init(edges: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction),
         occluders: ((EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)?, (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)?),
         rows: Range<Int>, columns: Range<Int>) {
        let coverage = [edges.0, edges.1, edges.2, edges.3]
        guard coverage.allSatisfy({ SpanBounds.isHorizontal($0) || $0.b == 0 }) else { return }
        // The vertical edges' bounds (their value does not depend on the row).
        var bounds = SpanBounds()
        for e in coverage where !SpanBounds.isHorizontal(e) { _ = bounds.apply(e, row: 0) }
        guard let whole = bounds.span(columns: columns) else { return }
        let horizontal = coverage.filter(SpanBounds.isHorizontal)
        self.rows = UprightRows.rows(rows) { y in
            horizontal.allSatisfy { $0.b * Double(y) + $0.c >= SpanBounds.interiorValue }
        }
        span = whole
        occluded = (UprightRows.steady(occluders.0, rows: rows), UprightRows.steady(occluders.1, rows: rows))
    }

    /// The steady rows of an occluder (none when it is nil or not upright).
    private static func steady(_ occluder: (EdgeFunction, EdgeFunction, EdgeFunction, EdgeFunction)?, rows: Range<Int>) -> Occluded {
        guard let occluder else { return Occluded() }
        let halves = [occluder.0, occluder.1, occluder.2, occluder.3]
        guard halves.allSatisfy({ SpanBounds.isHorizontal($0) || $0.b == 0 }) else { return Occluded() }
        var lo = -Double.infinity, hi = Double.infinity
        for e in halves where !SpanBounds.isHorizontal(e) { OccluderBounds.apply(e, row: 0, lo: &lo, hi: &hi) }
        let across = halves.filter(SpanBounds.isHorizontal)
        return Occluded(rows: UprightRows.rows(rows) { y in across.allSatisfy { OccluderBounds.inside($0, row: Double(y)) } },
                        lo: lo, hi: hi)
    }

    /// The rows of `rows` where `test` holds, given that it holds on one interval of them:
    /// every test is an edge value (monotonic in the row) against a bound. Found by bisection
    /// from the row where it holds best, the middle row (an edge's value is largest inside).
    private static func rows(_ rows: Range<Int>, where test: (Int) -> Bool) -> Range<Int> {
        guard !rows.isEmpty else { return rows }
        let middle = (rows.lowerBound + rows.upperBound - 1) / 2
        guard test(middle) else { return middle..<middle }
        // The first row that holds: in lowerBound...middle.
        var lo = rows.lowerBound, hi = middle
        while lo < hi { let m = (lo + hi) / 2; if test(m) { hi = m } else { lo = m + 1 } }
        let first = lo
        // The last row that holds: in middle...upperBound − 1.
        lo = middle; hi = rows.upperBound - 1
        while lo < hi { let m = (lo + hi + 1) / 2; if test(m) { lo = m } else { hi = m - 1 } }
        return first..<(lo + 1)
    }
}
