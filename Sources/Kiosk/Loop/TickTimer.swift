import CLinux
import Glibc

/// A `timerfd` that is armed only while something is due: the engine's fixed-rate tick while
/// the carousel moves, or a one-shot deadline (idle stages, frame-rate cap).
public final class TickTimer {
    public let fd: Int32
    public private(set) var isArmed = false

    public init() throws {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError("timerfd_create", errno) }
    }

    deinit { Glibc.close(fd) }

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
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        let n = Glibc.read(fd, &count, 8)
        return n == 8 ? count : 0
    }

    private func set(first: Double, interval: Double) {
        var spec = itimerspec()
        spec.it_value = Self.timespec(first)
        spec.it_interval = Self.timespec(interval)
        _ = timerfd_settime(fd, 0, &spec, nil)
        isArmed = first > 0
    }

    private static func timespec(_ s: Double) -> Glibc.timespec {
        guard s > 0 else { return Glibc.timespec() }
        let sec = Int(s)
        return Glibc.timespec(tv_sec: sec, tv_nsec: Int((s - Double(sec)) * 1e9))
    }
}
