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
                if let t = calendar.date(from: c)?.timeIntervalSince1970 { candidates.append(t) }
            }
        }
        // The zone's transitions change the local time by themselves; when clocks go back,
        // the local times of the repeated hour come round again (Foundation gives only their
        // first instant).
        for change in offsetChanges(from: unix - 3 * 3600, to: unix + 9 * 86_400) {
            candidates.append(change.at)
            if change.back > 0 {
                candidates += candidates.filter { $0 >= change.at - change.back && $0 < change.at }.map { $0 + change.back }
            }
        }
        for c in candidates.sorted() where c > unix && openWindow(at: c) != current { return c }
        return nil
    }

    /// The instants in `(start, end]` (to the hour) where the zone's UTC offset changes (daylight saving),
    /// found by comparing offsets hour by hour and bisecting to the second: Foundation's
    /// `nextDaylightSavingTimeTransition` skips autumn transitions on Linux.
    /// `back`: how many seconds the clocks go back there (0 when they go forward).
    func offsetChanges(from start: Double, to end: Double) -> [(at: Double, back: Double)] {
        func offset(_ t: Double) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t)) }
        var out: [(at: Double, back: Double)] = []
        var a = start
        var oa = offset(a)
        while a < end {
            let b = min(a + 3600, end)
            let ob = offset(b)
            if ob != oa {
                var lo = a.rounded(.down), hi = b.rounded(.up)
                while hi - lo > 1 {
                    let mid = ((lo + hi) / 2).rounded(.down)
                    if offset(mid) == oa { lo = mid } else { hi = mid }
                }
                out.append((hi, Double(max(0, oa - ob))))
            }
            a = b
            oa = ob
        }
        return out
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
