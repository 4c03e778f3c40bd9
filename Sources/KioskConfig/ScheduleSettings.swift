/// A day of the week, as `[[schedule]] days` names it.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
    // Numbered as Foundation's `Calendar` numbers weekdays (Sunday = 1).
    case sun = 1, mon, tue, wed, thu, fri, sat

    /// `"mon"`, `"tue"`…
    public var name: String { Weekday.names[rawValue - 1] }
    public static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    public init?(name: String) {
        guard let i = Weekday.names.firstIndex(of: name.lowercased()) else { return nil }
        self.init(rawValue: i + 1)
    }

    /// The day after (Saturday → Sunday).
    public var next: Weekday { Weekday(rawValue: rawValue % 7 + 1)! }
    /// The day before (Sunday → Saturday).
    public var previous: Weekday { Weekday(rawValue: (rawValue + 5) % 7 + 1)! }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// One `[[schedule]]` table: a window of opening hours on some days of the week, in local
/// time. A window whose `to` is earlier than its `from` crosses midnight: the part after
/// midnight belongs to the day the window started (`days = ["fri"]`, 22:00–02:00 is open
/// Friday 22:00 to Saturday 02:00).
public struct ScheduleWindow: Equatable, Sendable {
    /// The days the window starts on.
    public var days: Set<Weekday> = Set(Weekday.allCases)
    /// Minutes after local midnight: 0…1439 for `from`, 0…1440 for `to` (`"24:00"`).
    public var from = 0
    public var to = 0
    /// The ids of the items shown while the window is open, in this order; nil: every item.
    public var items: [String]?
    public init(days: Set<Weekday> = Set(Weekday.allCases), from: Int = 0, to: Int = 0, items: [String]? = nil) {
        self.days = days; self.from = from; self.to = to; self.items = items
    }

    /// True when the window crosses midnight.
    public var crossesMidnight: Bool { to < from }
    /// True when it is never open (`from == to`).
    public var isEmpty: Bool { from == to }

    /// `"HH:MM"`.
    public static func format(minutes m: Int) -> String {
        let h = m / 60, mm = m % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }

    /// `"mon,tue 09:00–18:00"`.
    public var description: String {
        days.sorted().map(\.name).joined(separator: ",") + " " + ScheduleWindow.format(minutes: from) + "–" + ScheduleWindow.format(minutes: to)
    }

    /// The minutes of the week (0 = Sunday 00:00) the window is open, as half-open intervals
    /// within 0…10080 (a window crossing Saturday midnight is split in two).
    public var weekIntervals: [Range<Int>] {
        guard !isEmpty else { return [] }
        let week = 7 * 1440
        var out: [Range<Int>] = []
        for d in days {
            let start = (d.rawValue - 1) * 1440 + from
            let end = (d.rawValue - 1) * 1440 + (crossesMidnight ? 1440 + to : to)
            if end <= week { out.append(start..<end) } else { out.append(start..<week); out.append(0..<(end - week)) }
        }
        return out
    }
}

/// `[schedule_defaults]`.
public struct ScheduleDefaults: Equatable, Sendable {
    /// What happens outside every `[[schedule]]` window.
    public enum Outside: String, CaseIterable, Sendable {
        /// The screen is off (as `[idle] blank_after`); input wakes it for `wake_for` seconds.
        case blank
        /// Attract mode runs.
        case attract
        /// Nothing special.
        case on
    }
    public var outside = Outside.blank
    /// Outside every window, input keeps the screen on (or attract mode off) this many seconds.
    public var wakeFor = 60.0
    /// Until the kernel says the clock is synchronised, or this many seconds after start, the
    /// schedule does not blank the screen (a board without a real-time clock boots in 1970).
    public var clockGrace = 300.0
    public init() {}
}
