/// `[[schedule]]` and `[schedule_defaults]`: opening hours (docs/schedules.md).
enum ScheduleSchema {
    typealias Key = KeySpec<ScheduleWindow>

    static var window: TableSpec<ScheduleWindow> {
        TableSpec(name: "schedule", doc: """
            A window of opening hours in local time (the system's time zone). Outside every window \
            `[schedule_defaults] outside` applies; with no `[[schedule]]` at all the kiosk is always \
            open. A window whose `to` is earlier than its `from` crosses midnight, and the part after \
            midnight belongs to the day it started on. Windows must not overlap.
            """, prototype: ScheduleWindow(), keys: [
                Key(name: "days", type: .weekdays, doc: "The days the window starts on.",
                    defaultOf: { ValueFormat.strings($0.days.sorted().map(\.name)) }, example: "[\"mon\", \"tue\", \"wed\", \"thu\", \"fri\"]",
                    apply: { w, v in w.days = Set(v.strings.compactMap(Weekday.init(name:))) }),
                Key(name: "from", type: .timeOfDay(endOfDay: false), doc: "When the window opens, `\"HH:MM\"` (24-hour).",
                    defaultOf: { _ in "none" }, example: "\"09:00\"", required: true, apply: { w, v in w.from = v.int }),
                Key(name: "to", type: .timeOfDay(endOfDay: true), doc: "When it closes; `\"24:00\"` is the end of the day, an earlier time than `from` is the next day.",
                    defaultOf: { _ in "none" }, example: "\"18:00\"", required: true, apply: { w, v in w.to = v.int }),
                Key(name: "items", type: .strings, doc: "While the window is open the carousel shows only these items (their ids), in this order; when it opens or closes the items change as in a reload (the current item stays when it is still shown).",
                    defaultOf: { _ in "every item" }, example: "[\"breakfast-1\", \"breakfast-2\"]", apply: { w, v in w.items = v.strings }),
            ], finish: { w in
                if w.days.isEmpty { w.days = Set(Weekday.allCases) }
                return []
            })
    }

    /// A window before its keys: no days and negative times, so one with a refused or missing
    /// key (its `finish` did not run) is left out of the empty and overlap checks.
    static func draft() -> ScheduleWindow { ScheduleWindow(days: [], from: -1, to: -1) }

    /// Whether every key of `w` was accepted.
    static func isComplete(_ w: ScheduleWindow) -> Bool { !w.days.isEmpty && w.from >= 0 && w.to >= 0 }

    static var defaults: TableSpec<KioskConfiguration> {
        TableSpec(name: "schedule_defaults", doc: """
            What the kiosk does outside every `[[schedule]]` window, and how far it trusts the clock.
            """, prototype: KioskConfiguration(), keys: [
                .choice("outside", \.scheduleDefaults.outside,
                        "`\"blank\"`: the screen is off (as `[idle] blank_after`), input wakes it for `wake_for` seconds; `\"attract\"`: attract mode runs (`[idle] attract_interval`); `\"on\"`: nothing special.",
                        example: .attract),
                .number("wake_for", \.scheduleDefaults.wakeFor, .aboveUpTo(0, 86_400),
                        "Outside every window, seconds input keeps the screen on (and attract mode off) after the last touch.", example: "120"),
                .number("clock_grace", \.scheduleDefaults.clockGrace, .closed(0, 86_400),
                        "Until the kernel reports the clock synchronised (NTP), or this many seconds after start, the schedule does not blank the screen (boards without a real-time clock start in 1970).",
                        example: "600"),
            ])
    }

    /// Every window, with empty windows and overlaps reported.
    static func store(_ config: inout KioskConfiguration, _ windows: [(ScheduleWindow, ConfigPath)], _ decoder: ConfigDecoder) {
        for (n, (w, path)) in windows.enumerated() where isComplete(w) {
            let number = n + 1
            if w.isEmpty {
                decoder.report(at: path + [.key("to")], key: false,
                               "[[schedule]] #\(number) is empty: 'from' and 'to' are both \(ScheduleWindow.format(minutes: w.from)) (a whole day is from = \"00:00\", to = \"24:00\")")
                continue
            }
            for (m, (earlier, _)) in windows[..<n].enumerated() where isComplete(earlier) && !earlier.isEmpty {
                if let at = firstOverlap(w.weekIntervals, earlier.weekIntervals) {
                    decoder.report(at: path + [.key("from")], key: false,
                                   "[[schedule]] #\(number) (\(w.description)) overlaps [[schedule]] #\(m + 1) (\(earlier.description)) from \(describeWeekMinute(at))")
                    break
                }
            }
        }
        config.schedule = windows.map(\.0)
    }

    /// The first minute of the week both sets of intervals contain.
    static func firstOverlap(_ a: [Range<Int>], _ b: [Range<Int>]) -> Int? {
        var best: Int?
        for x in a { for y in b where x.overlaps(y) { best = min(best ?? .max, max(x.lowerBound, y.lowerBound)) } }
        return best
    }

    /// `"mon 10:00"`.
    static func describeWeekMinute(_ m: Int) -> String {
        Weekday(rawValue: m / 1440 + 1)!.name + " " + ScheduleWindow.format(minutes: m % 1440)
    }

    /// Items named by windows must exist (called from the root's `finish`).
    static func checkItems(_ config: KioskConfiguration) -> [TableProblem] {
        let ids = config.items.map(\.id)
        var problems: [TableProblem] = []
        for (n, w) in config.schedule.enumerated() {
            if w.items?.isEmpty == true {
                problems.append(TableProblem(path: [.key("schedule"), .index(n), .key("items")],
                                             "[[schedule]] #\(n + 1) names no items; leave 'items' out to show every item"))
            }
            for (k, id) in (w.items ?? []).enumerated() where !ids.contains(id) {
                problems.append(TableProblem(path: [.key("schedule"), .index(n), .key("items"), .index(k)],
                                             "[[schedule]] #\(n + 1) names item \(ValueFormat.quoted(id)), but no item has that id"
                                                 + Suggestion.clause(for: id, in: ids, quote: { "\"\($0)\"" })))
            }
        }
        return problems
    }
}
