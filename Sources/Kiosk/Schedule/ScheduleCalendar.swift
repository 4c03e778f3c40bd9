import Foundation
import KioskConfig

/// `[[schedule]]` windows against local time: which window is open at an instant, and when
/// that next changes. Pure: it reads no clock. Local time comes from the zone's rules, so a
/// daylight-saving change moves the instants of `09:00` and `18:00` with it; a window is
/// open while the local wall-clock time is inside it (in the hour repeated when clocks go
/// back, that hour counts twice).
public struct ScheduleCalendar {
    public let windows: [ScheduleWindow]
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(windows: [ScheduleWindow], timeZone: TimeZone) {
        self.windows = windows
        self.timeZone = timeZone
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        calendar = cal
    }

    /// The index of the window open at `unix`, or nil when none is (the first in file order
    /// wins; `check-config` refuses overlaps anyway).
    public func openWindow(at unix: Double) -> Int? {
        let c = calendar.dateComponents([.weekday, .hour, .minute], from: Date(timeIntervalSince1970: unix))
        guard let wd = c.weekday.flatMap(Weekday.init(rawValue:)), let h = c.hour, let m = c.minute else { return nil }
        let minute = h * 60 + m
        return windows.firstIndex { w in
            if w.isEmpty { return false }
            if w.crossesMidnight {
                return (w.days.contains(wd) && minute >= w.from) || (w.days.contains(wd.previous) && minute < w.to)
            }
            return w.days.contains(wd) && minute >= w.from && minute < w.to
        }
    }

    /// The first instant after `unix` at which `openWindow` differs from its value at `unix`;
    /// nil when it never changes (no windows, or open all week). Candidates are every window's
    /// `from` and `to` on the next eight local days, plus the zone's daylight-saving
    /// transitions (a window edge inside a skipped hour takes effect at the jump).
    public func nextChange(after unix: Double) -> Double? {
        guard windows.contains(where: { !$0.isEmpty }) else { return nil }
        let current = openWindow(at: unix)
        let date = Date(timeIntervalSince1970: unix)
        let day = calendar.startOfDay(for: date)
        var minutes = Set<Int>()
        for w in windows where !w.isEmpty { minutes.insert(w.from); minutes.insert(w.to % 1440) }
        var candidates: [Double] = []
        for offset in 0...8 {
            guard let d = calendar.date(byAdding: .day, value: offset, to: day) else { continue }
            let ymd = calendar.dateComponents([.year, .month, .day], from: d)
            for m in minutes {
                var c = ymd
                c.hour = m / 60; c.minute = m % 60; c.second = 0
                if let t = calendar.date(from: c)?.timeIntervalSince1970, t > unix { candidates.append(t) }
            }
        }
        let horizon = unix + 9 * 86_400
        var t = date
        while let next = timeZone.nextDaylightSavingTimeTransition(after: t), next.timeIntervalSince1970 < horizon {
            candidates.append(next.timeIntervalSince1970)
            t = next
        }
        for c in candidates.sorted() where openWindow(at: c) != current { return c }
        return nil
    }

    /// `2026-03-29T02:00:00+01:00`: a local time for events and logs.
    public func localDescription(_ unix: Double) -> String {
        let date = Date(timeIntervalSince1970: unix)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = timeZone.secondsFromGMT(for: date)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offset < 0 ? "-" : "+"
        let o = abs(offset)
        return "\(c.year ?? 0)-\(two(c.month ?? 0))-\(two(c.day ?? 0))T\(two(c.hour ?? 0)):\(two(c.minute ?? 0)):\(two(c.second ?? 0))"
            + "\(sign)\(two(o / 3600)):\(two(o % 3600 / 60))"
    }
}
