/// Waits for a burst of changes to settle before acting once: due `quiet` seconds after the
/// last change, but never later than `longest` seconds after the first (a copy of thousands of
/// pictures still shows up while it runs). The items folder uses it so that a folder emptied or
/// filled file by file is re-listed once, not once per file.
struct QuietPeriod {
    let quiet: Double
    let longest: Double
    private var first: Double?
    private var last: Double?

    init(quiet: Double, longest: Double) {
        self.quiet = quiet
        self.longest = longest
    }

    /// A change happened at `now`.
    mutating func note(_ now: Double) {
        if first == nil { first = now }
        last = now
    }

    /// When to act (nil: nothing pending).
    var due: Double? {
        guard let first, let last else { return nil }
        return min(last + quiet, first + longest)
    }

    /// True (once) when the changes have settled by `now`; then nothing is pending.
    mutating func take(_ now: Double) -> Bool {
        guard let due, now >= due else { return false }
        first = nil
        last = nil
        return true
    }
}
