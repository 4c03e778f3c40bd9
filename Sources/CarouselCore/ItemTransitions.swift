/// Insertions and removals animate instead of jumping: the item that was centred stays centred,
/// every other item slides from where it was to where it now belongs over `INSERT_DURATION`
/// (0.4 s, eased), and an inserted item fades in. Each change remembers the offset and item count
/// before and after it, so an item's slide is worked out from its own index in O(changes) — the
/// cost per frame does not depend on the item count — and on a wrapping ring an item is followed
/// round the ring the short way (an item that crosses the seam at the back moves at once).
struct ItemTransitions {
    struct Change: Equatable {
        enum Kind: Equatable { case inserted, removed }
        var kind: Kind
        /// The index inserted at, or removed.
        var index: Int
        var offsetBefore: Double
        var countBefore: Int
        var offsetAfter: Double
        var countAfter: Int
        var wraps: Bool
        var start: Double

        /// How far (slots) an item that was at index `old` and is now at `new` moved because of
        /// this change: its old offset minus its new one; 0 for a jump across a wrapping ring's seam.
        func shift(from old: Int, to new: Int) -> Double {
            var after = Double(new) - offsetAfter
            var before = Double(old) - offsetBefore
            if wraps, countAfter > 0, countBefore > 0 {
                let na = Double(countAfter), nb = Double(countBefore)
                after -= (after / na).rounded() * na
                before -= ((before - after) / nb).rounded() * nb
            }
            let d = before - after
            return abs(d) <= 1.5 ? d : 0
        }
    }

    static let maxActive = 16
    private(set) var changes: [Change] = []

    var isEmpty: Bool { changes.isEmpty }

    private static func progress(_ start: Double, _ now: Double) -> Double {
        ICarouselPhysics.easeInOut((now - start) / ICarouselPhysics.insertDuration)
    }

    /// Slots item `index` (current numbering) is still displaced by at `now`, and its opacity factor.
    func effect(on index: Int, at now: Double) -> (displacement: Double, alpha: Double) {
        var j = index, displacement = 0.0
        for c in changes.reversed() {
            let remaining = 1 - Self.progress(c.start, now)
            let old: Int
            switch c.kind {
            case .inserted:
                // The inserted item fades in; earlier changes never knew it.
                if j == c.index { return (displacement, 1 - remaining) }
                old = j < c.index ? j : j - 1
            case .removed:
                old = j < c.index ? j : j + 1
            }
            displacement += c.shift(from: old, to: j) * remaining
            j = old
        }
        return (displacement, 1)
    }

    /// The item count as it eases from before the running changes to now, for sizing rings.
    func easedItemCount(_ itemCount: Int, at now: Double) -> Double {
        var n = Double(itemCount)
        for c in changes { n -= Double(c.countAfter - c.countBefore) * (1 - Self.progress(c.start, now)) }
        return n
    }

    /// Drops finished changes.
    mutating func prune(at now: Double) {
        changes.removeAll { now - $0.start >= ICarouselPhysics.insertDuration }
    }

    mutating func removeAll() { changes.removeAll() }

    /// Records a change; the oldest are dropped (finished at once) beyond `maxActive`.
    mutating func record(_ change: Change) {
        changes.append(change)
        if changes.count > Self.maxActive { changes.removeFirst(changes.count - Self.maxActive) }
    }
}
