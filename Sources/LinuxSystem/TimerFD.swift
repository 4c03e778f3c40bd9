import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A `timerfd` on `CLOCK_MONOTONIC`: readable when it expired, so timers wait in the same
/// `epoll` as everything else. Non-blocking, close-on-exec.
public final class TimerFD {
    /// The descriptor to watch for reading.
    public let fd: Int32

    /// `timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`.
    public init() throws {
        fd = try SystemCall.check("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { Glibc.close(fd) }

    /// `timerfd_settime` (relative): first expiry `first` seconds from now, then every
    /// `interval` seconds (0: once). `first` 0 disarms. A `first` too small to represent is
    /// raised to 1 ns, since a zero value would disarm instead.
    public func set(first: Double, interval: Double = 0) throws {
        var spec = itimerspec()
        if first > 0 {
            spec.it_value = MonotonicClock.timespec(first)
            if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        }
        spec.it_interval = MonotonicClock.timespec(interval)
        try SystemCall.check("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
    }

    /// Stops the timer (`timerfd_settime` with zero).
    public func disarm() throws { try set(first: 0, interval: 0) }

    /// Reads the number of expirations since the last read (0 when it had not expired: the
    /// read would block).
    @discardableResult
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        let n = retryingOnEINTR { Glibc.read(fd, &count, 8) }
        return n == 8 ? count : 0
    }
}
