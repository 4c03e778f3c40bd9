import Foundation
import JSON
import KioskConfig
import Logging

/// What the schedule reports when the open window changes.
public enum ScheduleEvent: Equatable, Sendable {
    /// Window `index` (0-based; 1-based in events and `check-config`) opened.
    case opened(index: Int)
    /// Every window is closed now; `after` is the window that just closed (nil at start).
    case closed(after: Int?)
}

/// `[[schedule]]` and `[schedule_defaults]` over a `WallClock`: which window is open, what the
/// idle stages must do outside every window, and when to look again. Like `IdleController` it
/// is driven from outside: `update(now:)` when `nextDeadline` (the loop's monotonic time) has
/// passed or the wall clock was set. The deadline is recomputed from the wall clock at every
/// update (`boundary − wall now` added to the monotonic now), never accumulated, so a clock
/// stepped by NTP or a daylight-saving change costs at most one early wake-up.
///
/// The clock guard: while the kernel says the clock is not synchronised and `clock_grace`
/// seconds have not passed since start, `outside = "blank"` does not blank (logged once); the
/// synchronisation is looked at again every 60 s until then.
public final class ScheduleController {
    public let windows: [ScheduleWindow]
    public let defaults: ScheduleDefaults
    public let clock: WallClock
    /// The windows against the clock's time zone, made at the first use: a kiosk without a
    /// schedule never asks for the system's zone or a Gregorian calendar (Foundation loads ICU's
    /// zone data for them: a visible part of the start under emulation, docs/start-up.md).
    public private(set) lazy var calendar = ScheduleCalendar(windows: windows, timeZone: clock.timeZone)
    /// When the kiosk started (monotonic): the clock guard's grace counts from it.
    public let started: Double
    private let logger: Logger

    /// The open window's index; nil when closed (or before the first update).
    public private(set) var openWindow: Int?
    /// False until the first `update`.
    public private(set) var isStarted = false
    /// True while the clock guard keeps the schedule from blanking.
    public private(set) var clockGuardHeld = false
    private var guardLogged = false
    /// The monotonic time `update` has something to do; nil: never (no windows).
    public private(set) var nextDeadline: Double?

    /// The guard re-reads the kernel's synchronisation this often while it holds.
    public static let guardRecheck = 60.0

    public init(windows: [ScheduleWindow], defaults: ScheduleDefaults, clock: WallClock, now: Double,
                started: Double? = nil, logger: Logger = Logger(label: "kiosk.schedule")) {
        self.windows = windows
        self.defaults = defaults
        self.clock = clock
        self.started = started ?? now
        self.logger = logger
        nextDeadline = windows.isEmpty ? nil : now
    }

    /// True when there is a schedule at all.
    public var isActive: Bool { !windows.isEmpty }

    /// What the idle stages must do now: nil inside a window, with no schedule, with
    /// `outside = "on"`, and for `"blank"` while the clock guard holds.
    public var idleOverride: IdleController.ScheduleOverride? {
        guard isActive, isStarted, openWindow == nil else { return nil }
        switch defaults.outside {
        case .blank: return clockGuardHeld ? nil : .blank(wakeFor: defaults.wakeFor)
        case .attract: return .attract(after: defaults.wakeFor)
        case .on: return nil
        }
    }

    /// The item ids to show now (the open window's `items`); nil: every item.
    public var shownItems: [String]? { openWindow.flatMap { windows[$0].items } }

    /// Reads the wall clock: reports a change of the open window (the first update always
    /// reports the state it finds), updates the clock guard and computes `nextDeadline`.
    public func update(now: Double) -> [ScheduleEvent] {
        guard isActive else { return [] }
        let wall = clock.unixTime
        let open = calendar.openWindow(at: wall)
        var events: [ScheduleEvent] = []
        if !isStarted || open != openWindow {
            let previous = openWindow
            if let open { events.append(.opened(index: open)) } else { events.append(.closed(after: previous)) }
            openWindow = open
            isStarted = true
        }
        let graceLeft = started + defaults.clockGrace - now
        let held = defaults.outside == .blank && graceLeft > 0 && !clock.isSynchronised
        if held && !guardLogged && open == nil {
            guardLogged = true
            logger.notice("schedule: the system clock is not synchronised yet (\(calendar.localDescription(wall))); the schedule does not blank the screen until it is, or for \(Int(graceLeft.rounded(.up))) s more")
        } else if clockGuardHeld && !held && guardLogged {
            logger.notice("schedule: \(clock.isSynchronised ? "the clock is synchronised" : "clock_grace has passed") (\(calendar.localDescription(wall))); the schedule applies")
        }
        clockGuardHeld = held
        var due = calendar.nextChange(after: wall).map { now + ($0 - wall) }
        if held { due = min(due ?? .infinity, now + Self.guardRecheck, started + defaults.clockGrace) }
        nextDeadline = due
        return events
    }

    /// The event line for `e`: its name and JSON-encoded fields.
    public func eventLine(_ e: ScheduleEvent) -> (name: String, fields: [(String, String)]) {
        let local = ("local_time", JSONString.quoted(calendar.localDescription(clock.unixTime)))
        switch e {
        case .opened(let i):
            let w = windows[i]
            var fields = [("window", String(i + 1)), ("from", JSONString.quoted(ScheduleWindow.format(minutes: w.from))),
                          ("to", JSONString.quoted(ScheduleWindow.format(minutes: w.to))), local]
            if let items = w.items { fields.append(("items", String(items.count))) }
            return ("schedule_opened", fields)
        case .closed(let after):
            var fields = [("outside", JSONString.quoted(defaults.outside.rawValue)), local]
            if let after { fields.insert(("window", String(after + 1)), at: 0) }
            if clockGuardHeld { fields.append(("clock_guard", "true")) }
            return ("schedule_closed", fields)
        }
    }
}
