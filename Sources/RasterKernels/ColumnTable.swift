/// For an axis-aligned quad the texture column depends only on the screen column, so the
/// left texel and the horizontal filter weight are computed once per column per quad, not
/// once per pixel. The weight is stored twice (both 16-bit halves), ready for the channel-pair
/// arithmetic. For each column the table also records the `BlockShape` of the 8 columns
/// starting there, so the row filter can load near-unit-scale blocks without a gather.
/// Preallocated scratch, grown when needed; one per band worker.
final class ColumnTable {
    /// Spare entries past the last column, so 8-wide loads of a run's tail stay inside.
    static let padding = 8
    /// A one-entry table for quads that need none (never read).
    static let unset = ColumnTable(capacity: 1)

    private(set) var capacity: Int
    private(set) var texel: UnsafeMutablePointer<Int32>
    private(set) var weight: UnsafeMutablePointer<UInt32>
    private(set) var shape: UnsafeMutablePointer<BlockShape>
    /// x86-64-v2, for columns whose block is `halves4`: 8 entries per column, the `pshufb` byte
    /// indices that spread each half's 16-byte window to its 4 lanes (`raster_v2_halves4`).
    /// Empty in the other builds.
    private(set) var spread: UnsafeMutablePointer<UInt32>
    #if RASTER_KERNELS_V2
    static let spreadPerColumn = 8
    #else
    static let spreadPerColumn = 0
    #endif

    init(capacity: Int = 0) {
        self.capacity = capacity
        texel = .allocate(capacity: capacity + ColumnTable.padding)
        weight = .allocate(capacity: capacity + ColumnTable.padding)
        shape = .allocate(capacity: capacity + ColumnTable.padding)
        spread = .allocate(capacity: ColumnTable.spreadPerColumn * (capacity + ColumnTable.padding))
        texel.initialize(repeating: 0, count: capacity + ColumnTable.padding)
        weight.initialize(repeating: 0, count: capacity + ColumnTable.padding)
        shape.initialize(repeating: .gather, count: capacity + ColumnTable.padding)
        spread.initialize(repeating: 0, count: ColumnTable.spreadPerColumn * (capacity + ColumnTable.padding))
    }

    deinit { texel.deallocate(); weight.deallocate(); shape.deallocate(); spread.deallocate() }

    /// Fills columns `columns` (plus padding) for `s`, and points `s` at the table.
    func fill(_ s: inout QuadSampler, columns: Range<Int>) {
        let needed = columns.upperBound + ColumnTable.padding
        if needed > capacity {
            texel.deallocate(); weight.deallocate(); shape.deallocate(); spread.deallocate()
            capacity = needed
            texel = .allocate(capacity: capacity + ColumnTable.padding)
            weight = .allocate(capacity: capacity + ColumnTable.padding)
            shape = .allocate(capacity: capacity + ColumnTable.padding)
            spread = .allocate(capacity: ColumnTable.spreadPerColumn * (capacity + ColumnTable.padding))
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
        for x in max(0, columns.lowerBound)..<columns.upperBound {
            #if RASTER_KERNELS_AVX2
            shape[x] = BlockShape(windowOf: texel + x, adjacent: s.stepX == 1, texWidth: s.texWidth)
            #elseif RASTER_KERNELS_V2
            // Mirrored as the row filter sees it (texel columns falling from left to right).
            let mirrored = s.um.0 < 0
            shape[x] = BlockShape(halvesOf: texel + x, adjacent: s.stepX == 1, texWidth: s.texWidth, mirrored: mirrored)
            if shape[x] == .halves4 {
                // Each lane's texel as bytes of its half's window (from the half's first lane, or
                // its last when mirrored: 0…2 texels on, `BlockShape`), as the row filter loads it.
                let low = mirrored ? 3 : 0
                for h in 0..<2 {
                    let t = texel + x + 4 * h
                    for j in 0..<4 { spread[ColumnTable.spreadPerColumn * x + 4 * h + j] = UInt32(t[j] - t[low]) * 0x0404_0404 + 0x0302_0100 }
                }
            }
            #else
            shape[x] = BlockShape(texel + x, adjacent: s.stepX == 1)
            #endif
        }
        s.columnSpread = UnsafePointer(spread)
        s.columnTexel = UnsafePointer(texel)
        s.columnWeight = UnsafePointer(weight)
        s.columnShape = UnsafePointer(shape)
    }
}

/// How the left texels of 8 neighbouring screen columns lie in their texture row. The
/// baseline build records the first four kinds (plain loads near unit scale), the AVX2 build
/// the window kinds (any scale down to ½, `vpermd`) and `gather`, the x86-64-v2 build the
/// baseline's kinds and `halves4` (magnified, `pshufb`).
enum BlockShape: UInt8 {
    /// `i0, i0+1, … i0+7`: two plain loads.
    case consecutive
    /// Consecutive but for one texel skipped (minified a little): `i0 + k` before the skip,
    /// `i0 + k + 1` from it on.
    case skipsOne
    /// Consecutive but for one texel repeated (magnified a little): `i0 + k` before the
    /// repeat, `i0 + k − 1` from it on.
    case repeatsOne
    /// Anything else: texels fetched one by one.
    case gather
    /// AVX2: the texels and their right neighbours lie in the 9 texels from the lowest
    /// (`low`, the first column's, or the last one's when mirrored), inside the row: one
    /// 8-texel window per neighbour, spread to the lanes with `vpermd`.
    case window8
    /// AVX2: likewise within 17 texels from the lowest: two windows per neighbour.
    case window16
    /// x86-64-v2: each half of the 8 columns (0–3 and 4–7) has its texels and their right
    /// neighbours in the 4 texels from that half's lowest (magnified by about 4/3 or more),
    /// inside the row: one 16-byte load per half and neighbour, spread with `pshufb`.
    case halves4

    /// The shape of the 8 entries from `texel` (`adjacent`: the right neighbour is the next
    /// texel, so pairs can come from plain loads at all).
    init(_ texel: UnsafePointer<Int32>, adjacent: Bool) {
        guard adjacent else { self = .gather; return }
        var up = false, down = false
        for k in 0..<8 {
            switch texel[k] &- texel[0] &- Int32(k) {
            case 0: if up || down { self = .gather; return }  // the offset must not go back
            case 1: if down { self = .gather; return }; up = true
            case -1: if up { self = .gather; return }; down = true
            default: self = .gather; return
            }
        }
        self = up ? .skipsOne : (down ? .repeatsOne : .consecutive)
    }

    /// The x86-64-v2 kind of the 8 entries from `texel`: the baseline kinds, else `halves4`
    /// where it applies (in each half, every texel 0…2 past the half's first one, or its last
    /// when `mirrored`, which is ≥ 0 and has 4 texels from it inside a row of `texWidth`),
    /// else `gather`.
    init(halvesOf texel: UnsafePointer<Int32>, adjacent: Bool, texWidth: Int, mirrored: Bool) {
        self.init(texel, adjacent: adjacent)
        guard self == .gather, adjacent else { return }
        for half in 0..<2 {
            let t = texel + 4 * half, low = mirrored ? t[3] : t[0]
            guard low >= 0, Int(low) + 4 <= texWidth else { return }
            for j in 0..<4 where !(0...2).contains(t[j] &- low) { return }
        }
        self = .halves4
    }

    /// The AVX2 kind of the 8 entries from `texel`: `window8` or `window16` when the texels
    /// span fewer than 8 or 16 and the window's texels (and the right neighbours) lie inside
    /// a row of `texWidth`, else `gather`.
    init(windowOf texel: UnsafePointer<Int32>, adjacent: Bool, texWidth: Int) {
        let first = Int(texel[0]), last = Int(texel[7])
        let low = first < last ? first : last, spread = first < last ? last - first : first - last
        if !adjacent || spread >= 16 || low < 0 {
            self = .gather
        } else if spread < 8 {
            self = low + 9 <= texWidth ? .window8 : .gather
        } else {
            self = low + 17 <= texWidth ? .window16 : .gather
        }
    }
}
