import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging

/// Hands the screen and input over to a foreground program and takes them back.
public protocol ActionRunnerDelegate: AnyObject {
    /// Called just before a foreground program is spawned: stop drawing, drop DRM master and
    /// suspend input devices. Throwing refuses the launch (an `action_failed` event follows and
    /// `actionRunnerDidEndForeground` is called so that a half-done release is undone).
    func actionRunnerWillStartForeground(_ runner: ActionRunner) throws
    /// Called once the foreground program has exited (or could not be started after the
    /// release): take DRM master back, resume input and redraw.
    func actionRunnerDidEndForeground(_ runner: ActionRunner)
}

/// Runs item actions for the main loop without ever blocking it.
///
/// - `exec` starts a program with `posix_spawn` (see `ProcessSpawner`); the loop calls
///   `reapChildren(now:)` when its signalfd reports SIGCHLD, and `update(now:)` when
///   `nextDeadline` passes (timeouts: SIGTERM to the program's process group, SIGKILL after
///   `terminationGrace` seconds).
/// - `foreground` programs are bracketed by the delegate's will-start / did-end calls; while
///   one runs, every other selection is ignored (`isForegroundActive`).
/// - `emit` only reports an `emitted` event.
///
/// Every outcome comes back as `ActionEvent`s, which the loop writes to the events file and the
/// control socket. Nothing here sleeps or starts a thread.
public final class ActionRunner {
    /// One running child.
    private struct Child {
        var pid: pid_t
        var index: Int
        var id: String
        var mode: ItemAction.ExecMode
        var startedAt: Double
        /// When SIGTERM is due (nil: no timeout, or already sent).
        var termAt: Double?
        /// When SIGKILL is due (set once SIGTERM went out).
        var killAt: Double?
        var timedOut = false
    }

    /// What a foreground program left running in its process group after it exited: it may
    /// still hold the screen, so the screen is handed back only once the group is gone (SIGTERM
    /// at once, SIGKILL after the grace period; a killed process holds no files even before it
    /// is reaped).
    private struct Leftovers {
        var pgid: pid_t
        var index: Int
        var id: String
        var killAt: Double?
        var giveUpAt: Double
        var nextCheck: Double
    }

    /// How often a lingering process group is checked for (only in that rare case).
    static let leftoverPollInterval = 0.05

    public weak var delegate: ActionRunnerDelegate?
    /// Seconds between SIGTERM and SIGKILL for a program past its timeout or at shutdown.
    public var terminationGrace: Double
    /// At most this many background programs at once; more selections are refused.
    public var maxBackgroundChildren: Int

    private var settings: ActionSettings
    private let baseEnvironment: [String: String]
    private var children: [Child] = []
    private var leftovers: Leftovers?
    private let logger: Logger

    /// - Parameters:
    ///   - settings: `[actions]` (environment, whether to inherit the kiosk's, default working
    ///     directory).
    ///   - baseEnvironment: the kiosk's own environment (see `ActionEnvironment`), read from
    ///     `environ` (`ProcessEnvironment`): Foundation's `ProcessInfo` is not made before the
    ///     first frame (docs/start-up.md, stops 52 and 60).
    ///   - terminationGrace: seconds from SIGTERM to SIGKILL.
    public init(settings: ActionSettings, baseEnvironment: [String: String] = ProcessEnvironment.current(),
                terminationGrace: Double = 5, maxBackgroundChildren: Int = 8,
                logger: Logger = Logger(label: "kiosk.actions")) {
        self.settings = settings
        self.baseEnvironment = baseEnvironment
        self.terminationGrace = terminationGrace
        self.maxBackgroundChildren = maxBackgroundChildren
        self.logger = logger
    }

    /// Applies a reloaded `[actions]`; running programs are not touched.
    public func update(settings: ActionSettings) { self.settings = settings }

    /// True while a foreground program (or what it left running) owns the screen.
    public var isForegroundActive: Bool { leftovers != nil || children.contains { $0.mode == .foreground } }

    /// The pids of the programs still running (not yet reaped).
    public var runningPIDs: [pid_t] { children.map(\.pid) }

    /// The earliest moment `update(now:)` has work (a SIGTERM or SIGKILL due, or a check of a
    /// foreground program's leftovers); nil: none.
    public var nextDeadline: Double? {
        let leftoverCheck = leftovers.map { min($0.nextCheck, $0.killAt ?? .infinity) }
        return (children.compactMap { c -> Double? in
            switch (c.termAt, c.killAt) {
            case let (t?, k?): return min(t, k)
            case let (t?, nil): return t
            case let (nil, k?): return k
            default: return nil
            }
        } + [leftoverCheck].compactMap { $0 }).min()
    }

    /// Runs an item's configured action (`.none` does nothing).
    public func perform(_ action: ItemAction, index: Int, id: String, now: Double) -> [ActionEvent] {
        guard let request = ActionRequest(action) else { return [] }
        return perform(request, index: index, id: id, now: now)
    }

    /// Runs one action for item `index`/`id`. Returns what happened at once (`emitted`,
    /// `action_started`, `action_failed`); an empty list when the selection is ignored because
    /// a foreground program runs or the same item's program is still running.
    public func perform(_ request: ActionRequest, index: Int, id: String, now: Double) -> [ActionEvent] {
        func event(_ kind: ActionEvent.Kind) -> ActionEvent { ActionEvent(time: now, index: index, id: id, kind: kind) }
        if isForegroundActive {
            logger.info("selection of item \(index) '\(id)' ignored: a foreground program is running")
            return []
        }
        switch request {
        case .emit(let value):
            logger.info("item \(index) '\(id)' emitted \(value)")
            return [event(.emitted(value: value))]
        case .exec(let spec):
            if children.contains(where: { $0.index == index && $0.id == id }) {
                logger.info("selection of item \(index) '\(id)' ignored: its program is still running")
                return []
            }
            if spec.mode == .background && children.count >= maxBackgroundChildren {
                let message = "too many programs running (\(children.count)); not starting \(spec.argv.first ?? "")"
                logger.warning("item \(index) '\(id)': \(message)")
                return [event(.failed(message: message))]
            }
            if let t = spec.timeout, !(t.isFinite && t > 0) {
                return [event(.failed(message: "timeout must be a positive number of seconds, not \(t)"))]
            }
            if spec.mode == .foreground, let delegate {
                do {
                    try delegate.actionRunnerWillStartForeground(self)
                } catch {
                    logger.error("item \(index) '\(id)': cannot hand over the screen: \(error)")
                    delegate.actionRunnerDidEndForeground(self)
                    return [event(.failed(message: "cannot hand over the screen: \(error)"))]
                }
            }
            let env = ActionEnvironment.merge(base: baseEnvironment, inherit: settings.inheritEnvironment, settings: settings.env, action: spec.environment,
                                              itemIndex: index, itemID: id)
            let pid: pid_t
            do {
                pid = try ProcessSpawner.spawn(argv: spec.argv, environment: env,
                                               workingDirectory: spec.workingDirectory ?? settings.workingDirectory)
            } catch {
                logger.error("item \(index) '\(id)': cannot start \(spec.argv.first ?? "?"): \(error)")
                if spec.mode == .foreground { delegate?.actionRunnerDidEndForeground(self) }
                return [event(.failed(message: "\(error)"))]
            }
            children.append(Child(pid: pid, index: index, id: id, mode: spec.mode, startedAt: now,
                                  termAt: spec.timeout.map { now + $0 }))
            logger.info("item \(index) '\(id)': started \(spec.argv.joined(separator: " ")) as pid \(pid) (\(spec.mode.rawValue))")
            return [event(.started(pid: pid, mode: spec.mode.rawValue))]
        }
    }

    /// Collects every one of our children that has ended (`waitpid(pid, WNOHANG)` for exactly
    /// our pids, so other children of the process are left alone). Call on SIGCHLD.
    public func reapChildren(now: Double) -> [ActionEvent] {
        var events: [ActionEvent] = []
        var endedForeground = false
        children.removeAll { c in
            var status: Int32 = 0
            let r = retryingOnEINTR { waitpid(c.pid, &status, WNOHANG) }
            let termination: Termination
            if r == c.pid {
                termination = Termination(waitStatus: status)
            } else if r < 0 && errno == ECHILD {
                // Someone else reaped it (should not happen); report it as gone.
                logger.warning("pid \(c.pid) of item \(c.index) '\(c.id)' was reaped elsewhere")
                termination = .signaled(signal: 0)
            } else {
                return false
            }
            let duration = max(0, now - c.startedAt)
            let level: Logger.Level = termination == .exited(code: 0) && !c.timedOut ? .info : .warning
            logger.log(level: level, "item \(c.index) '\(c.id)': pid \(c.pid) ended: \(termination) after \(String(format: "%.3f", duration)) s\(c.timedOut ? " (timed out)" : "")")
            events.append(ActionEvent(time: now, index: c.index, id: c.id,
                                      kind: .exited(pid: c.pid, termination: termination, duration: duration, timedOut: c.timedOut)))
            if c.mode == .foreground {
                // Whatever the program left behind in its group must not keep the screen.
                if kill(-c.pid, SIGTERM) == 0 {
                    logger.warning("item \(c.index) '\(c.id)': pid \(c.pid) left processes running; sent them SIGTERM")
                    events.append(ActionEvent(time: now, index: c.index, id: c.id, kind: .leftovers(pgid: c.pid, signal: SIGTERM)))
                    leftovers = Leftovers(pgid: c.pid, index: c.index, id: c.id, killAt: now + terminationGrace,
                                          giveUpAt: now + terminationGrace + 0.25, nextCheck: now + Self.leftoverPollInterval)
                } else {
                    endedForeground = true
                }
            }
            return true
        }
        if endedForeground { delegate?.actionRunnerDidEndForeground(self) }
        return events
    }

    /// Sends the SIGTERMs and SIGKILLs that are due, and hands the screen back once a
    /// foreground program's leftovers are gone. Call when `nextDeadline` has passed.
    public func update(now: Double) -> [ActionEvent] {
        var events: [ActionEvent] = []
        if var l = leftovers {
            if kill(-l.pgid, 0) != 0 && errno == ESRCH {
                logger.info("item \(l.index) '\(l.id)': the program's leftovers are gone")
                endLeftovers()
            } else if let k = l.killAt, now >= k {
                _ = kill(-l.pgid, SIGKILL)
                logger.warning("item \(l.index) '\(l.id)': leftovers of pid \(l.pgid) ignored SIGTERM; sent SIGKILL")
                events.append(ActionEvent(time: now, index: l.index, id: l.id, kind: .leftovers(pgid: l.pgid, signal: SIGKILL)))
                l.killAt = nil
                l.nextCheck = now + Self.leftoverPollInterval
                leftovers = l
            } else if now >= l.giveUpAt {
                // Killed processes that nobody has reaped yet hold no files: the screen is free.
                endLeftovers()
            } else {
                l.nextCheck = now + Self.leftoverPollInterval
                leftovers = l
            }
        }
        for i in children.indices {
            if let t = children[i].termAt, now >= t {
                children[i].termAt = nil
                children[i].killAt = now + terminationGrace
                children[i].timedOut = true
                signal(children[i], SIGTERM)
                logger.warning("item \(children[i].index) '\(children[i].id)': pid \(children[i].pid) timed out; sent SIGTERM")
                events.append(ActionEvent(time: now, index: children[i].index, id: children[i].id,
                                          kind: .timeout(pid: children[i].pid, signal: SIGTERM)))
            } else if let k = children[i].killAt, now >= k {
                children[i].killAt = nil
                signal(children[i], SIGKILL)
                logger.warning("item \(children[i].index) '\(children[i].id)': pid \(children[i].pid) ignored SIGTERM; sent SIGKILL")
                events.append(ActionEvent(time: now, index: children[i].index, id: children[i].id,
                                          kind: .timeout(pid: children[i].pid, signal: SIGKILL)))
            }
        }
        return events
    }

    /// Ends the foreground program before its time (the person held the leave key): SIGTERM to
    /// its process group now, SIGKILL after `terminationGrace` through `update(now:)`; the screen
    /// comes back when it has gone, as after any exit. Nothing when none runs or it is already
    /// being ended.
    public func endForeground(now: Double) -> [ActionEvent] {
        guard let i = children.firstIndex(where: { $0.mode == .foreground }), children[i].killAt == nil else { return [] }
        children[i].termAt = nil
        children[i].killAt = now + terminationGrace
        signal(children[i], SIGTERM)
        logger.info("item \(children[i].index) '\(children[i].id)': the leave key was held; sent SIGTERM to pid \(children[i].pid)")
        return [ActionEvent(time: now, index: children[i].index, id: children[i].id, kind: .left(pid: children[i].pid))]
    }

    /// Asks every running program to end (SIGTERM now, SIGKILL after `terminationGrace` through
    /// `update(now:)`). For an orderly shutdown: keep the loop running until `runningPIDs` is
    /// empty or `nextDeadline` has passed twice.
    public func terminateAll(now: Double) {
        if let l = leftovers { _ = kill(-l.pgid, SIGTERM) }
        for i in children.indices where children[i].killAt == nil {
            children[i].termAt = nil
            children[i].killAt = now + terminationGrace
            signal(children[i], SIGTERM)
        }
    }

    /// Last resort at exit: SIGKILL every program's group and wait for each (a killed process
    /// ends at once, so this does not hang). Returns their `action_exited` events.
    public func killAllAndWait(now: Double) -> [ActionEvent] {
        var events: [ActionEvent] = []
        let wasForeground = isForegroundActive
        if let l = leftovers {
            _ = kill(-l.pgid, SIGKILL)
            leftovers = nil
        }
        for c in children {
            signal(c, SIGKILL)
            var status: Int32 = 0
            let r = retryingOnEINTR { waitpid(c.pid, &status, 0) }
            let termination = r == c.pid ? Termination(waitStatus: status) : .signaled(signal: SIGKILL)
            events.append(ActionEvent(time: now, index: c.index, id: c.id,
                                      kind: .exited(pid: c.pid, termination: termination,
                                                    duration: max(0, now - c.startedAt), timedOut: false)))
        }
        children.removeAll()
        if wasForeground { delegate?.actionRunnerDidEndForeground(self) }
        return events
    }

    private func endLeftovers() {
        leftovers = nil
        if !children.contains(where: { $0.mode == .foreground }) { delegate?.actionRunnerDidEndForeground(self) }
    }

    /// Signals the child's process group, or the child alone when the group is gone.
    private func signal(_ c: Child, _ sig: Int32) {
        if kill(-c.pid, sig) != 0 { _ = kill(c.pid, sig) }
    }
}
