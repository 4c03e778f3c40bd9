import Display
import Foundation

/// Whether the screen is healthy, for systemd's watchdog: the loop pings only while it is, so a
/// kiosk whose process is alive but whose screen is dead ("a tab hung on screen for hours") is
/// restarted like a hung one (docs/systemd.md, "A watchdog that watches the screen").
///
/// Unhealthy is one of two things:
/// - the display says a frame it took was not confirmed on screen within its time limit
///   (`DisplayHealth.stalled`: a page flip whose completion never came, in a row);
/// - a frame was owed to the screen — the scene changed or the display asked for one, while the
///   display is able to show (`DisplayHealth.showing`) — and none was presented for
///   `frameDeadline` seconds.
///
/// Everything else is healthy, in particular the states where no frame is due: a still carousel
/// (idle, 0 frames drawn), the idle blank, a foreground program holding the screen, the display
/// released, its DRM master taken by another program, no screen connected (the loop passes
/// `frameNeeded: false` or the display says `.notShowing`).
///
/// A loop thread that hangs — in a driver call, or waiting for a render band thread that never
/// finishes (the loop joins its render threads) — stops pinging without this: nothing here runs.
///
/// Pure bookkeeping on the times it is given; `KioskApp.serviceWatchdog(now:)` feeds it once
/// per loop pass and says in the journal and in `STATUS=` when the health changes.
public struct ScreenWatch: Sendable {
    /// Why the screen is not healthy.
    public enum Problem: Equatable, Sendable {
        /// The display has not confirmed a frame on screen since `since` (monotonic seconds).
        case presentationStalled(since: Double)
        /// A frame has been owed since `since` and none was presented.
        case frameOverdue(since: Double)

        /// Since when (monotonic seconds) the problem lasts.
        public var since: Double {
            switch self {
            case .presentationStalled(let t), .frameOverdue(let t): return t
            }
        }

        /// The same kind of problem (whatever its time).
        func sameKind(as other: Problem) -> Bool {
            switch (self, other) {
            case (.presentationStalled, .presentationStalled), (.frameOverdue, .frameOverdue): return true
            default: return false
            }
        }

        /// One line for the journal and `STATUS=`, with how long it lasts at `now`.
        public func describe(now: Double) -> String {
            let ago = String(format: "%.1f", max(0, now - since))
            switch self {
            case .presentationStalled:
                return "display stalled: a page flip has not been confirmed on screen for \(ago) s"
            case .frameOverdue:
                return "display stalled: a frame has been due for \(ago) s and none was presented"
            }
        }
    }

    /// A change of health that the loop reports once.
    public enum Change: Equatable, Sendable {
        /// Unhealthy now (or unhealthy for another reason than before).
        case unhealthy(Problem)
        /// Healthy again after `Problem`.
        case recovered(Problem)
    }

    /// Seconds a frame may be owed before the screen counts as stalled.
    public let frameDeadline: Double
    /// Since when a frame is owed (monotonic seconds); nil: none is.
    public private(set) var frameNeededSince: Double?
    /// The current problem; nil: healthy.
    public private(set) var problem: Problem?

    /// - Parameter frameDeadline: see `frameDeadline(watchdogInterval:)`.
    public init(frameDeadline: Double) {
        self.frameDeadline = frameDeadline
    }

    /// The bound for an owed frame from the ping interval (half of `WatchdogSec=`): that interval,
    /// but at least 1.5 s (more than the DRM flip timeout of 1 s, so one lost flip completion that
    /// the backend gets past is not a stall) and at most 5 s (a long `WatchdogSec=` must not leave a
    /// dead screen for minutes). `WatchdogSec=10` → 5 s; `WatchdogSec=4` → 2 s.
    public static func frameDeadline(watchdogInterval: Double) -> Double {
        min(5, max(1.5, watchdogInterval))
    }

    /// True when the loop may ping.
    public var isHealthy: Bool { problem == nil }

    /// When a problem can start without anything waking the loop (an owed frame's deadline); nil:
    /// nothing pending.
    public var nextCheck: Double? {
        guard problem == nil, let since = frameNeededSince else { return nil }
        return since + frameDeadline
    }

    /// Takes the loop's state after its pass. `frameNeeded`: the scene or the display wants a
    /// frame and nothing legitimately keeps it off the screen (blank, foreground program, no
    /// screen). Returns the change of health, if any.
    public mutating func update(now: Double, frameNeeded: Bool, display: DisplayHealth) -> Change? {
        let current: Problem?
        switch display {
        case .notShowing:
            frameNeededSince = nil
            current = nil
        case .showing, .stalled:
            if frameNeeded { frameNeededSince = frameNeededSince ?? now } else { frameNeededSince = nil }
            if case .stalled(let since) = display {
                current = .presentationStalled(since: since)
            } else if let since = frameNeededSince, now - since >= frameDeadline {
                current = .frameOverdue(since: since)
            } else {
                current = nil
            }
        }
        defer { problem = current }
        switch (problem, current) {
        case (nil, let now?): return .unhealthy(now)
        case (let was?, nil): return .recovered(was)
        case (let was?, let now?) where !now.sameKind(as: was): return .unhealthy(now)
        default: return nil
        }
    }

    /// A frame was presented: nothing is owed any more.
    public mutating func framePresented() {
        frameNeededSince = nil
    }
}
