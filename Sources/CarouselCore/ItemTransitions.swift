/// Insertions and removals animate instead of jumping: the item that was centred stays centred,
/// the items on one side slide one slot over `INSERT_DURATION` (0.4 s, eased), and an inserted
/// item fades in. Kept per index range, so the cost per frame does not depend on the item count.
struct ItemTransitions {
    /// Items `lower…upper` (indices after the change) start `amount` slots from their place.
    struct Shift: Equatable {
        var lower: Int
        var upper: Int
        var amount: Double
        var start: Double
    }
    /// Item `index` fades in from `start`.
    struct FadeIn: Equatable {
        var index: Int
        var start: Double
    }

    static let maxActive = 16
    private(set) var shifts: [Shift] = []
    private(set) var fades: [FadeIn] = []

    var isEmpty: Bool { shifts.isEmpty && fades.isEmpty }

    private static func progress(_ start: Double, _ now: Double) -> Double {
        ICarouselPhysics.easeInOut((now - start) / ICarouselPhysics.insertDuration)
    }

    /// Slots item `index` is still displaced by at `now`.
    func displacement(of index: Int, at now: Double) -> Double {
        var d = 0.0
        for s in shifts where index >= s.lower && index <= s.upper {
            d += s.amount * (1 - Self.progress(s.start, now))
        }
        return d
    }

    /// Opacity factor of item `index` at `now`.
    func alpha(of index: Int, at now: Double) -> Double {
        var a = 1.0
        for f in fades where f.index == index { a *= Self.progress(f.start, now) }
        return a
    }

    /// Drops finished transitions.
    mutating func prune(at now: Double) {
        shifts.removeAll { now - $0.start >= ICarouselPhysics.insertDuration }
        fades.removeAll { now - $0.start >= ICarouselPhysics.insertDuration }
    }

    mutating func removeAll() { shifts.removeAll(); fades.removeAll() }

    /// Item `index` was inserted; `shift` describes which items slide and from where.
    mutating func inserted(at index: Int, shift: Shift?, fadeFrom now: Double) {
        for i in shifts.indices {
            if shifts[i].lower >= index { shifts[i].lower += 1 }
            if shifts[i].upper >= index { shifts[i].upper += 1 }
        }
        for i in fades.indices where fades[i].index >= index { fades[i].index += 1 }
        if let s = shift, s.lower <= s.upper { shifts.append(s) }
        fades.append(FadeIn(index: index, start: now))
        trim()
    }

    /// Item `index` was removed; `shift` describes which items slide and from where.
    mutating func removed(at index: Int, shift: Shift?) {
        fades.removeAll { $0.index == index }
        for i in fades.indices where fades[i].index > index { fades[i].index -= 1 }
        for i in shifts.indices {
            if shifts[i].lower > index { shifts[i].lower -= 1 }
            if shifts[i].upper >= index { shifts[i].upper -= 1 }
        }
        shifts.removeAll { $0.upper < $0.lower }
        if let s = shift, s.lower <= s.upper { shifts.append(s) }
        trim()
    }

    private mutating func trim() {
        if shifts.count > Self.maxActive { shifts.removeFirst(shifts.count - Self.maxActive) }
        if fades.count > Self.maxActive { fades.removeFirst(fades.count - Self.maxActive) }
    }
}
