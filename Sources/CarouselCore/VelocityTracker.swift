/// Velocity from a least-squares line through the samples of the last `window` seconds, so one
/// jittery sample at release does not decide a fling.
public struct VelocityTracker: Sendable {
    /// Seconds of history that count.
    public var window: Double
    private var times: [Double] = []
    private var positions: [Double] = []
    private static let maxSamples = 64

    public init(window: Double = 0.1) { self.window = window.isFinite && window > 0 ? window : 0.1 }

    /// Forgets every sample.
    public mutating func reset() { times.removeAll(keepingCapacity: true); positions.removeAll(keepingCapacity: true) }

    /// Adds a sample; samples out of time order replace nothing and are ignored.
    public mutating func add(time: Double, position: Double) {
        guard time.isFinite, position.isFinite else { return }
        if let last = times.last, time < last { return }
        times.append(time)
        positions.append(position)
        if times.count > Self.maxSamples {
            times.removeFirst(times.count - Self.maxSamples)
            positions.removeFirst(positions.count - Self.maxSamples)
        }
    }

    /// The slope (position units per second) of the samples within `window` of `now`; 0 with
    /// fewer than two such samples or no time spread.
    public func velocity(at now: Double) -> Double {
        var n = 0.0, st = 0.0, sp = 0.0
        guard let t0 = times.last else { return 0 }
        for (t, p) in zip(times, positions) where now - t <= window + 1e-9 {
            n += 1; st += t - t0; sp += p
        }
        guard n >= 2 else { return 0 }
        let mt = st / n, mp = sp / n
        var num = 0.0, den = 0.0
        for (t, p) in zip(times, positions) where now - t <= window + 1e-9 {
            let dt = (t - t0) - mt
            num += dt * (p - mp)
            den += dt * dt
        }
        let v = den > 1e-12 ? num / den : 0
        return v.isFinite ? v : 0
    }
}
