import Foundation
import LinuxSystem

/// The local wall clock the schedule reads: Unix time, the time zone, and whether the kernel
/// trusts the time. Injected, so tests and `simulate --wall-clock` can set it; the loop keeps
/// its monotonic clock for everything else.
public protocol WallClock: AnyObject {
    /// Seconds since the Unix epoch (`CLOCK_REALTIME`).
    var unixTime: Double { get }
    /// The zone local times are in.
    var timeZone: TimeZone { get }
    /// The kernel says the clock is synchronised (NTP); false on a board without a real-time
    /// clock that has not reached a time server yet.
    var isSynchronised: Bool { get }
}

/// The system's clock: `CLOCK_REALTIME`, the zone of `TZ` or `/etc/localtime`
/// (`TimeZone.current`), `adjtimex` for the synchronisation.
public final class SystemWallClock: WallClock {
    private let givenZone: TimeZone?
    /// The zone given, else the system's, looked up when first asked (Foundation reads
    /// `/etc/localtime` and builds the zone: 0.9 M instructions that a kiosk without a schedule
    /// need not spend at its start).
    public var timeZone: TimeZone { givenZone ?? .current }
    public init(timeZone: TimeZone? = nil) { givenZone = timeZone }
    public var unixTime: Double { Date().timeIntervalSince1970 }
    public var isSynchronised: Bool { systemClockSynchronised() }
}

/// A wall clock that is set by hand: tests step it (as NTP would), `simulate` moves it with
/// its virtual time.
public final class ManualWallClock: WallClock {
    public var unixTime: Double
    public var timeZone: TimeZone
    public var isSynchronised: Bool
    public init(unixTime: Double, timeZone: TimeZone, isSynchronised: Bool = true) {
        self.unixTime = unixTime; self.timeZone = timeZone; self.isSynchronised = isSynchronised
    }

    /// Parses `2026-03-29T01:59:00` (seconds optional) as a local time in `zone`; nil when it
    /// is not such a time or does not exist there (inside a spring-forward gap).
    public static func unixTime(parsingLocal text: String, in zone: TimeZone) -> Double? {
        let parts = text.split(separator: "T")
        guard parts.count == 2 else { return nil }
        let d = parts[0].split(separator: "-").map { Int($0) }
        let t = parts[1].split(separator: ":").map { Int($0) }
        guard d.count == 3, (2...3).contains(t.count), !d.contains(nil), !t.contains(nil) else { return nil }
        var c = DateComponents()
        c.year = d[0]; c.month = d[1]; c.day = d[2]; c.hour = t[0]; c.minute = t[1]; c.second = t.count == 3 ? t[2] : 0
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        guard let date = cal.date(from: c) else { return nil }
        // Foundation moves an impossible time (25:00, Feb 30, a DST gap): refuse it instead.
        let back = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard back.year == c.year, back.month == c.month, back.day == c.day, back.hour == c.hour,
              back.minute == c.minute, back.second == c.second else { return nil }
        return date.timeIntervalSince1970
    }
}
