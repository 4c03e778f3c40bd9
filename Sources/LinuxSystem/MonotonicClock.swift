#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in seconds: never goes back, unaffected by setting the date, and the clock
/// evdev, libinput, DRM page-flip events and timerfds use. The one clock of the program (the
/// display keeps a seam over it for its tests).
public struct MonotonicClock: Sendable {
    /// The reading when this clock value was made (an origin for `elapsed`).
    public let start: Double

    /// A clock whose `start` is now.
    public init() { start = Self.now() }

    /// Seconds since an arbitrary fixed point (the boot), as `Double`.
    public static func now() -> Double {
        var ts = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return seconds(ts)
    }

    /// The same reading as `MonotonicClock.now()`.
    public func now() -> Double { Self.now() }

    /// Seconds since `start`.
    public var elapsed: Double { Self.now() - start }

    /// A `timespec` as seconds.
    public static func seconds(_ ts: Glibc.timespec) -> Double { Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 }

    /// Seconds as a `timespec` (zero for values that are not positive).
    public static func timespec(_ seconds: Double) -> Glibc.timespec {
        guard seconds > 0, seconds.isFinite else { return Glibc.timespec() }
        let whole = seconds.rounded(.down)
        var nanos = Int(((seconds - whole) * 1e9).rounded())
        var sec = Int(whole)
        if nanos >= 1_000_000_000 { sec += 1; nanos -= 1_000_000_000 }
        return Glibc.timespec(tv_sec: sec, tv_nsec: nanos)
    }
}

/// `MonotonicClock.now()`: monotonic time in seconds.
@inlinable
public func monotonicNow() -> Double { MonotonicClock.now() }

/// `CLOCK_REALTIME` in seconds since the Unix epoch: the wall clock (what a fleet compares with
/// its own `time()`). Read only where a Unix time is the point (facts, status files); what
/// measures time uses `MonotonicClock`. Components take it injected, so tests own it.
public enum WallClockTime {
    /// Unix time now.
    public static func now() -> Double {
        var ts = Glibc.timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return MonotonicClock.seconds(ts)
    }
}
