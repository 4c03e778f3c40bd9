import LinuxSystem

/// A `TimerFD` that is armed only while something is due: the engine's fixed-rate tick while
/// the carousel moves, or a one-shot deadline (idle stages, frame-rate cap).
public final class TickTimer {
    private let timer: TimerFD
    /// The descriptor the loop watches.
    public var fd: Int32 { timer.fd }
    public private(set) var isArmed = false

    public init() throws {
        timer = try TimerFD()
    }

    /// Fires every `interval` seconds starting `interval` from now.
    public func armRepeating(interval: Double) {
        set(first: interval, interval: interval)
    }

    /// Fires once, `delay` seconds from now (at least 1 µs).
    public func armOnce(after delay: Double) {
        set(first: max(delay, 1e-6), interval: 0)
    }

    /// Stops the timer.
    public func disarm() {
        set(first: 0, interval: 0)
    }

    /// Reads the expiration count (0 if it had not fired); call when `fd` is readable.
    @discardableResult
    public func acknowledge() -> UInt64 { timer.acknowledge() }

    /// `timerfd_settime` cannot fail with a valid descriptor and a normalized value; a failure
    /// would be a bug, so it stops the program in debug builds and is ignored in release ones
    /// (as before the `TimerFD` wrapper).
    private func set(first: Double, interval: Double) {
        do { try timer.set(first: first, interval: interval) } catch { assertionFailure("\(error)") }
        isArmed = first > 0
    }
}
