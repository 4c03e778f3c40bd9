import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A `timerfd` on `CLOCK_MONOTONIC` (or `CLOCK_REALTIME`): readable when it expired, so timers
/// wait in the same `epoll` as everything else. Non-blocking, close-on-exec.
public final class TimerFD {
    /// The descriptor to watch for reading.
    public var fd: Int32 { descriptor.raw }
    private let descriptor: FileDescriptor

    /// `timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`.
    public convenience init() throws { try self.init(realtime: false) }

    /// `timerfd_create` on `CLOCK_REALTIME` when `realtime` (for `watchClockChanges()`),
    /// else on `CLOCK_MONOTONIC`.
    public init(realtime: Bool) throws {
        let clock = realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC
        descriptor = try FileDescriptor.check("timerfd_create") { timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    /// On a `CLOCK_REALTIME` timer: arms it for a time that never comes, with
    /// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`, so the descriptor becomes readable
    /// exactly when the wall clock is set (`clock_settime`, `settimeofday`, an NTP step; not
    /// the gradual slew). `clockWasSet()` then says so; arm again after it.
    public func watchClockChanges() throws {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max / 2  // far beyond any real date: it never expires
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        try SystemCall.check("timerfd_settime") { timerfd_settime(fd, flags, &spec, nil) }
    }

    /// After `watchClockChanges()`: true when the wall clock was set since it was armed (the
    /// read fails with `ECANCELED`); call `watchClockChanges()` again then.
    public func clockWasSet() -> Bool {
        var count: UInt64 = 0
        let n = retryingOnEINTR { Glibc.read(fd, &count, 8) }
        return n < 0 && errno == ECANCELED
    }


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
