/// How long the kiosk's frames took to draw and hand to the display (`PresentedFrame.duration`),
/// counted in fixed buckets as a Prometheus histogram (`kiosk_carousel_frame_duration_seconds`):
/// one addition per frame, nothing kept per frame. A reader takes two samples and computes the
/// median or the 99th percentile of the frames between them from the differences of the counts
/// (PromQL's `histogram_quantile` over a `rate`; the endurance run does the same,
/// docs/reliability.md "Endurance").
public struct FrameTimeHistogram: Equatable, Sendable {
    /// The buckets' upper bounds in seconds, ascending: fine below a 60 Hz refresh (16.7 ms),
    /// coarse above it, up to 5 s (a loaded emulator's frames; a quantile in the `+Inf` bucket
    /// reads as the last bound). A frame above the last bound is counted in `count` only.
    public static let bounds: [Double] = [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.008, 0.010, 0.012, 0.014,
                                          0.0167, 0.020, 0.025, 0.0333, 0.050, 0.0667, 0.100, 0.150, 0.250,
                                          0.500, 1.0, 2.0, 5.0]

    /// Frames per bucket (not cumulative): `counts[i]` took more than `bounds[i-1]` and at most
    /// `bounds[i]` seconds.
    public private(set) var counts = [Int](repeating: 0, count: FrameTimeHistogram.bounds.count)
    /// All frames counted, those above the last bound included.
    public private(set) var count = 0
    /// Their durations added up, seconds.
    public private(set) var sum = 0.0

    public init() {}

    /// Counts one frame that took `seconds` (a negative or non-finite time is counted as 0).
    public mutating func record(_ seconds: Double) {
        let d = seconds.isFinite ? max(0, seconds) : 0
        count += 1
        sum += d
        if let i = Self.bounds.firstIndex(where: { d <= $0 }) { counts[i] += 1 }
    }

    /// The upper bound of the bucket that holds the `q`-quantile (0…1) of every frame counted,
    /// the estimate `histogram_quantile` would give without interpolation; the last bound when it
    /// lies above it, nil before the first frame.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Double(count) * min(max(q, 0), 1)
        for (i, c) in cumulativeCounts.enumerated() where Double(c) >= rank && c > 0 { return Self.bounds[i] }
        return Self.bounds.last
    }

    /// Frames at most `bounds[i]` seconds, for each bound (the exposition format's `le` buckets).
    public var cumulativeCounts: [Int] {
        var running = 0
        return counts.map { running += $0; return running }
    }
}
