import Foundation
import LinuxSystem
import Logging

/// systemd in the loop: `READY=1` with the first frame, `STATUS=` while the screen is healthy,
/// and the watchdog pinged only while the screen is healthy (`ScreenWatch`): a display that stops
/// taking frames gets the kiosk restarted. When the health changes it says so once, in the
/// journal (what, since when) and in `STATUS=`. Does nothing without a notify socket.
final class WatchdogComponent: KioskComponent {
    private unowned let context: KioskContext
    /// systemd's notify socket; nil when not started by a service manager that listens.
    let notifier: SystemdNotifier?
    /// The screen's health, which decides whether the watchdog is pinged.
    private(set) var screenWatch: ScreenWatch
    /// What `STATUS=` says while the screen is healthy (set with `READY=1`).
    private var healthyStatus: String?
    /// Times the screen became unhealthy (`errors{kind="display"}`).
    private var unhealthyTimes = 0
    /// When the loop must wake for the watchdog (the reactor's time); nil: never.
    private var wake: Double?

    init(notifier: SystemdNotifier?, context: KioskContext) {
        self.notifier = notifier
        self.context = context
        screenWatch = ScreenWatch(frameDeadline: ScreenWatch.frameDeadline(watchdogInterval: notifier?.watchdogInterval ?? 5))
    }

    func attach(to reactor: Reactor) throws {
        if let interval = notifier?.watchdogInterval {
            context.logger.info("watchdog: pinging every \(interval) s while the screen is healthy (a due frame may wait \(screenWatch.frameDeadline) s)")
        }
    }

    /// After the frame pump: ping or not, and when to look again.
    func prepare(now: Double) {
        let t = context.reactor.clock()
        wake = serviceWatchdog(now: t).map { now + Double($0) / 1000 }
    }

    var nextDeadline: Double? { wake }

    func framePresented(_ frame: PresentedFrame) {
        screenWatch.framePresented()
        if frame.count == 1 {
            // Ready also while the problem card shows: the kiosk runs and says what is wrong.
            healthyStatus = statusLine
            try? notifier?.ready(status: healthyStatus)
        }
    }

    func report(into health: inout KioskHealth) {
        health.errors["display", default: 0] += unhealthyTimes
    }

    func stop(now: Double) { try? notifier?.stopping() }

    /// What `STATUS=` says while the screen is healthy.
    var statusLine: String { context.store.statusLine(items: context.session.config.items.count) }

    /// Says `statusLine` in `STATUS=` while the screen is healthy (after READY).
    func updateStatus() {
        guard healthyStatus != nil, statusLine != healthyStatus else { return }
        healthyStatus = statusLine
        if screenWatch.isHealthy { try? notifier?.status(statusLine) }
    }

    /// The watchdog's part of a loop pass at monotonic time `t`, after the frame: pings systemd
    /// when a ping is due and the screen is healthy. Returns how long the loop may sleep for it in
    /// milliseconds (the next ping, the next health check); nil without a watchdog.
    func serviceWatchdog(now t: Double) -> Int32? {
        guard let n = notifier, n.watchdogInterval != nil else { return nil }
        switch screenWatch.update(now: t, frameNeeded: context.frameNeeded, display: context.display.health) {
        case .unhealthy(let problem)?:
            unhealthyTimes += 1
            let text = problem.describe(now: t)
            context.logger.error("\(text); not pinging the watchdog: systemd restarts the kiosk unless the display recovers")
            try? n.status("\(text); not pinging the watchdog")
        case .recovered(let problem)?:
            context.logger.notice("display healthy again after \(String(format: "%.1f", t - problem.since)) s; pinging the watchdog again")
            try? n.status(healthyStatus ?? "running")
        case nil:
            break
        }
        var wake: Double
        if screenWatch.isHealthy {
            do { try n.pingWatchdogIfDue(now: t) } catch { context.logger.warning("watchdog: \(error)") }
            wake = n.nextWatchdogDeadline ?? .infinity
            if let check = screenWatch.nextCheck { wake = min(wake, check) }
        } else {
            wake = t + 1  // look again each second, to ping as soon as the screen is back
        }
        guard wake.isFinite else { return nil }
        return Int32(max(0, ((wake - t) * 1000).rounded(.up)))
    }
}
