import Raster

/// WCAG 2.3.1 / EN 301 549 11.2.3.1's general flash, counted over frames: a pair of opposing
/// changes in relative luminance of at least 10 % of the maximum (0.1) where the darker state is
/// below 0.8. Counted for each tile of a 4 × 3 grid (each a twelfth of the screen: smaller than
/// the 25 % of the central 10° of vision the rule takes as "large enough", so stricter) and for
/// the whole screen; the result is the most flashes in any one second, in any of them.
struct FlashCounter {
    /// One region's luminance over time and its transitions so far.
    private struct Region {
        var low = Double.infinity, high = -Double.infinity
        var lastDirection = 0
        var transitions: [Double] = []

        mutating func add(_ l: Double, at t: Double) {
            low = min(low, l)
            high = max(high, l)
            if l - low >= 0.1, low < 0.8, lastDirection != 1 {
                record(1, l, t)
            } else if high - l >= 0.1, l < 0.8, lastDirection != -1 {
                record(-1, l, t)
            }
        }

        private mutating func record(_ direction: Int, _ l: Double, _ t: Double) {
            lastDirection = direction
            transitions.append(t)
            low = l
            high = l
        }

        /// The most flashes (pairs of transitions) in any window of `window` seconds.
        func maxFlashes(window: Double = 1) -> Int {
            var best = 0, first = 0
            for (i, t) in transitions.enumerated() {
                while transitions[first] <= t - window { first += 1 }
                best = max(best, (i - first + 1) / 2)
            }
            return best
        }
    }

    private var regions = Array(repeating: Region(), count: 13)
    private(set) var frames = 0

    /// Adds the frame shown at `time`.
    mutating func add(_ frame: Canvas, at time: Double) {
        frames += 1
        var sums = Array(repeating: 0.0, count: 12), counts = Array(repeating: 0, count: 12)
        // Every second pixel each way is plenty for a mean.
        for y in stride(from: 0, to: frame.height, by: 2) {
            let row = min(2, y * 3 / frame.height)
            for x in stride(from: 0, to: frame.width, by: 2) {
                let tile = row * 4 + min(3, x * 4 / frame.width)
                sums[tile] += WCAGContrast.luminance(frame[x, y])
                counts[tile] += 1
            }
        }
        for tile in 0..<12 { regions[tile].add(sums[tile] / Double(max(1, counts[tile])), at: time) }
        regions[12].add(sums.reduce(0, +) / Double(max(1, counts.reduce(0, +))), at: time)
    }

    /// The most general flashes in any one second, in any region.
    var maxFlashesPerSecond: Int { regions.map { $0.maxFlashes() }.max() ?? 0 }
    /// Transitions seen in all regions (a scene that never changes proves nothing).
    var transitions: Int { regions.map(\.transitions.count).reduce(0, +) }
}
