import Cards
import Foundation
import LinuxSystem
import Logging

/// The loop's side of `[metrics]`: it shows the reporter the facts after every pass
/// (`observe`, cheap: a comparison), and the reporter says when it wants to write
/// (`nextDeadline`, `MetricsComponent`'s deadline in the loop) — only after a change, at most
/// every `interval` seconds (`MetricsSchedule`). A still kiosk keeps sleeping with no timeout.
/// The text is made on the loop (microseconds); the file is written on `MetricsFile`'s thread.
public final class MetricsReporter {
    public private(set) var schedule: MetricsSchedule
    public let file: MetricsFile
    private var lastSeen: KioskHealth?
    /// Reads the resident memory when writing (tests pass a fixed one).
    var residentBytes: () -> Int? = KioskHealth.readResidentBytes
    /// Reads what malloc holds when writing (tests pass a fixed one).
    var heap: () -> HeapTuning.Usage? = { HeapTuning.usage }

    public init(path: String, interval: Double, asynchronous: Bool = true, logger: Logger) {
        schedule = MetricsSchedule(interval: interval)
        file = MetricsFile(path: path, asynchronous: asynchronous, logger: logger)
    }

    /// The facts at `now` (the loop's clock): a change makes a write due.
    public func observe(_ health: KioskHealth, now: Double) {
        guard health != lastSeen else { return }
        lastSeen = health
        schedule.changed(now: now)
    }

    /// When a write is due (the loop's clock); nil: nothing changed since the last write.
    public var nextDeadline: Double? { schedule.due }

    /// Writes the file when a write is due at `now`; returns whether it did.
    @discardableResult
    public func writeIfDue(now: Double) -> Bool {
        guard let h = lastSeen, schedule.take(now: now) else { return false }
        file.write(PrometheusText.render(measured(h)))
        return true
    }

    /// Writes what was last seen if it was not written yet (at exit), and waits for the file.
    public func finish() {
        if schedule.due != nil, let h = lastSeen {
            file.write(PrometheusText.render(measured(h)))
        }
        file.flush()
        file.stop()
    }

    /// The facts with the memory read now (the loop's facts do not carry it: it changes without them).
    private func measured(_ facts: KioskHealth) -> KioskHealth {
        var h = facts
        h.residentBytes = residentBytes()
        h.heap = heap()
        return h
    }
}
