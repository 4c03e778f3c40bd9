/// The engine's fixed-rate clock: step `k` happens at `origin + k / hz`, whatever times the
/// caller passes in. A gap longer than `maxCatchUp` seconds (a suspended process) is skipped
/// rather than replayed step by step; every motion is a closed-form function of time, so the
/// state after the gap is the same.
struct FixedStepClock {
    static let maxCatchUp = 2.0

    private(set) var origin: Double?
    private(set) var steps: Int64 = 0
    private(set) var hz: Double

    init(hz: Double) { self.hz = FixedStepClock.sane(hz) }

    static func sane(_ hz: Double) -> Double { hz.isFinite && hz >= 1 ? min(hz, 10_000) : 120 }

    /// Time of the last step (or of the first call, before any step).
    var time: Double { (origin ?? 0) + Double(steps) / hz }

    /// Changes the rate, keeping the current time as the new origin.
    mutating func setRate(_ newHz: Double) {
        let h = FixedStepClock.sane(newHz)
        guard h != hz else { return }
        if origin != nil { origin = time; steps = 0 }
        hz = h
    }

    /// Runs `step(time, dt)` for every step due up to `now`.
    mutating func advance(to now: Double, _ step: (Double, Double) -> Void) {
        guard now.isFinite else { return }
        guard let o = origin else { origin = now; return }
        let due = ((now - o) * hz + 1e-6).rounded(.down)
        guard due > Double(steps) else { return }
        guard due < 9e15 else { origin = now; steps = 0; return }
        let target = Int64(due)
        let limit = Int64(Self.maxCatchUp * hz)
        if target - steps > limit { steps = target - 1 }
        let dt = 1 / hz
        while steps < target {
            steps += 1
            step(time, dt)
        }
    }
}
