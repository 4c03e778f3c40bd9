import Raster

/// The finished card textures (with their mip levels), bounded in bytes. When a new texture
/// does not fit, the entries farthest from the focus go first (least recently used first among
/// equals); an entry is never evicted for one farther from the focus than itself — the newcomer
/// is refused instead. Used by the main loop only (not thread-safe).
struct CardCache {
    struct Entry {
        var texture: Texture
        /// The item version the texture was drawn for (older ones are shown until replaced).
        var version: Int
        var failed: Bool
        var lastUse: UInt64
    }

    /// The bound in bytes.
    let capacity: Int
    private(set) var bytes = 0
    private(set) var entries: [Int: Entry] = [:]
    private var clock: UInt64 = 0
    /// Highest `bytes` ever reached (for the benchmark and tests).
    private(set) var peakBytes = 0

    init(capacity: Int) { self.capacity = max(0, capacity) }

    var count: Int { entries.count }

    /// The entry for item `index`, marked as just used.
    mutating func use(_ index: Int) -> Entry? {
        guard var e = entries[index] else { return nil }
        clock += 1
        e.lastUse = clock
        entries[index] = e
        return e
    }

    func peek(_ index: Int) -> Entry? { entries[index] }

    /// Stores a texture for `index`, evicting by `distance` (from the focus) to make room.
    /// Returns the indices evicted, or nil when the texture was refused (it is the farthest).
    mutating func insert(_ index: Int, texture: Texture, version: Int, failed: Bool,
                         distance: (Int) -> Double) -> [Int]? {
        let size = texture.byteCount
        let replaced = entries[index].map { $0.texture.byteCount } ?? 0
        guard size <= capacity else { return nil }
        var evicted: [Int] = []
        var need = bytes - replaced + size - capacity
        if need > 0 {
            let mine = distance(index)
            let candidates = entries.keys.filter { $0 != index }.sorted { a, b in
                let da = distance(a), db = distance(b)
                if da != db { return da > db }
                return entries[a]!.lastUse < entries[b]!.lastUse
            }
            var chosen: [Int] = []
            for c in candidates where need > 0 {
                guard distance(c) >= mine else { break }
                chosen.append(c)
                need -= entries[c]!.texture.byteCount
            }
            guard need <= 0 else { return nil }
            for c in chosen { remove(c) }
            evicted = chosen
        }
        remove(index)
        clock += 1
        entries[index] = Entry(texture: texture, version: version, failed: failed, lastUse: clock)
        bytes += size
        peakBytes = max(peakBytes, bytes)
        return evicted
    }

    mutating func remove(_ index: Int) {
        if let e = entries.removeValue(forKey: index) { bytes -= e.texture.byteCount }
    }

    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }

    /// Moves entries to new indices (after the item list changed); entries not in `map` go.
    mutating func remap(_ map: [Int: Int]) {
        var moved: [Int: Entry] = [:]
        var total = 0
        for (old, e) in entries {
            guard let new = map[old] else { continue }
            moved[new] = e
            total += e.texture.byteCount
        }
        entries = moved
        bytes = total
    }
}
