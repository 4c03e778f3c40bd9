/// Burn-in care (`[display] pixel_shift`): where the whole scene is moved to at a given time.
///
/// The offset walks a closed path through every point of the square `[-n, n]²`, each point once
/// per cycle, so over a cycle the scene spends the same time at every offset. Every step moves by
/// one pixel along one axis, except one step per cycle that moves by one pixel along both (an
/// odd square has no closed path of axis steps alone: it is bipartite with an odd number of
/// points). For `n = 1` the order of the cells (columns and rows 0…2; the offset is the cell
/// minus 1) is
///
/// ```
/// 1 2 3
/// 8 9 4      9 → 1 is the diagonal step
/// 7 6 5
/// ```
///
/// and in general: row 0 left to right, down the last column, then the columns 2n-1 … 2 of the
/// rows below up and down in turn, then the columns 0 and 1 zig-zag row by row from the bottom
/// to (1, 1), and the diagonal step back to (0, 0).
///
/// The cycle is turned so that time 0 is the centre (no shift), and a step is taken every
/// `interval` seconds: the offset is a step function of time, and `nextChange(after:)` is when
/// the loop has to wake up to draw the next one (nothing in between).
public struct PixelShift: Equatable, Sendable {
    /// The largest offset along each axis (0: off).
    public let range: Int
    /// Seconds between two steps.
    public let interval: Double
    /// Added to the time before the step is looked up (the live loop starts where the wall clock
    /// says, so that restarts do not keep the scene near the centre).
    public let phase: Double
    /// The offsets of one cycle, in order, starting at (0, 0).
    public let path: [(x: Int, y: Int)]

    public init(range: Int, interval: Double, phase: Double = 0) {
        self.range = max(0, range)
        self.interval = interval > 0 && interval.isFinite ? interval : 600
        let cycle = PixelShift.cycle(range: self.range)
        let centre = cycle.firstIndex { $0.x == 0 && $0.y == 0 } ?? 0
        path = Array(cycle[centre...] + cycle[..<centre])
        // Only the phase within a cycle matters; keeping it small keeps the arithmetic exact.
        let period = self.interval * Double(path.count)
        self.phase = phase.isFinite ? phase - (phase / period).rounded(.down) * period : 0
    }

    public static func == (a: PixelShift, b: PixelShift) -> Bool {
        a.range == b.range && a.interval == b.interval && a.phase == b.phase
    }

    /// True when the scene moves at all.
    public var isActive: Bool { range > 0 }

    /// Seconds the path takes to visit every offset once.
    public var period: Double { interval * Double(path.count) }

    /// The step in force at time `t`.
    public func step(at t: Double) -> Int {
        guard isActive else { return 0 }
        let n = ((t + phase) / interval).rounded(.down)
        let count = Double(path.count)
        let r = n - (n / count).rounded(.down) * count
        return min(max(Int(r), 0), path.count - 1)
    }

    /// The offset in pixels at time `t`.
    public func offset(at t: Double) -> (x: Int, y: Int) {
        isActive ? path[step(at: t)] : (0, 0)
    }

    /// A time just after the next step following `t` (a millisecond late, so that `offset(at:)`
    /// at that time is surely the new step whatever the rounding); nil when off.
    public func nextChange(after t: Double) -> Double? {
        guard isActive else { return nil }
        let n = ((t + phase) / interval).rounded(.down) + 1
        return n * interval - phase + PixelShift.lateness
    }

    /// How late after a step's boundary `nextChange` points.
    public static let lateness = 0.001

    /// The closed path through `[-range, range]²` described above, starting at the corner.
    static func cycle(range n: Int) -> [(x: Int, y: Int)] {
        guard n > 0 else { return [(0, 0)] }
        let s = 2 * n + 1, m = 2 * n
        var cells: [(Int, Int)] = []
        cells.reserveCapacity(s * s)
        for i in 0..<s { cells.append((i, 0)) }                // row 0, left to right
        for j in 1..<s { cells.append((s - 1, j)) }            // down the last column
        // The block of columns 0…m-1 below row 0 (block row b is grid row b + 1), from its
        // bottom-right corner: columns m-1 … 2 up and down in turn (an even number of them, so
        // the last one ends at the bottom)…
        var c = m - 1
        while c >= 2 {
            let up = (m - 1 - c) % 2 == 0
            for b in 0..<m { cells.append((c, 1 + (up ? m - 1 - b : b))) }
            c -= 1
        }
        // …then the two columns 0 and 1 row by row from the bottom, ending at (1, 1), one
        // diagonal step from (0, 0).
        for b in stride(from: m - 1, through: 0, by: -1) {
            let k = m - 1 - b
            if k % 2 == 0 { cells.append((1, 1 + b)); cells.append((0, 1 + b)) } else { cells.append((0, 1 + b)); cells.append((1, 1 + b)) }
        }
        return cells.map { (x: $0.0 - n, y: $0.1 - n) }
    }
}
