/// For an axis-aligned quad the texture column depends only on the screen column, so the
/// left texel and the horizontal filter weight are computed once per column per quad, not
/// once per pixel. The weight is stored twice (both 16-bit halves), ready for the channel-pair
/// arithmetic. Preallocated scratch, grown when needed; one per band worker.
final class ColumnTable {
    /// Spare entries past the last column, so 8-wide loads of a run's tail stay inside.
    static let padding = 8
    /// A one-entry table for quads that need none (never read).
    static let unset = ColumnTable(capacity: 1)

    private(set) var capacity: Int
    private(set) var texel: UnsafeMutablePointer<Int32>
    private(set) var weight: UnsafeMutablePointer<UInt32>

    init(capacity: Int = 0) {
        self.capacity = capacity
        texel = .allocate(capacity: capacity + ColumnTable.padding)
        weight = .allocate(capacity: capacity + ColumnTable.padding)
        texel.initialize(repeating: 0, count: capacity + ColumnTable.padding)
        weight.initialize(repeating: 0, count: capacity + ColumnTable.padding)
    }

    deinit { texel.deallocate(); weight.deallocate() }

    /// Fills columns `columns` (plus padding) for `s`, and points `s` at the table.
    func fill(_ s: inout QuadSampler, columns: Range<Int>) {
        let needed = columns.upperBound + ColumnTable.padding
        if needed > capacity {
            texel.deallocate(); weight.deallocate()
            capacity = needed
            texel = .allocate(capacity: capacity + ColumnTable.padding)
            weight = .allocate(capacity: capacity + ColumnTable.padding)
        }
        let maxU = Double(s.maxU)
        for x in max(0, columns.lowerBound)..<needed {
            var u = s.um.0 * (Double(x) + 0.5) + s.um.2
            u = u > maxU ? maxU : (u > 0 ? u : 0)
            let i = u.rounded(.down)
            texel[x] = Int32(i)
            let w = UInt32(((u - i) * 256).rounded())
            weight[x] = w | w << 16
        }
        s.columnTexel = UnsafePointer(texel)
        s.columnWeight = UnsafePointer(weight)
    }
}
