import Foundation
import LinuxSystem

/// One of the start's helper threads (`run`'s fonts' thread), step by step, for the start-up
/// line (`StartupTimeline.threads`): when it began, when each of its steps ended, and where its
/// time went (`ThreadAccounting`, read on the thread as it ends). The thread marks its steps
/// while the main thread goes on; the line is written once the first frame is on screen, when
/// the thread has usually ended — else the line says what it was still doing.
/// Thread-safe: written by its thread, read by the loop's.
public final class StartupThreadRecord: @unchecked Sendable {
    /// The name the line gives it (`fonts' thread`).
    public let name: String
    private let lock = NSLock()
    private var began: Double?
    private var steps: [StartupTimeline.Step] = []
    private var accounting: ThreadAccounting?
    private var ended: Double?

    public init(name: String) { self.name = name }

    /// The thread has begun (call on it, first).
    public func begin(at time: Double = MonotonicClock.now()) {
        lock.lock()
        began = time
        lock.unlock()
    }

    /// Ends the step `step` (the next begins there).
    public func mark(_ step: String, at time: Double = MonotonicClock.now()) {
        lock.lock()
        steps.append(StartupTimeline.Step(name: step, end: time))
        lock.unlock()
    }

    /// The thread's work is done (call on it, last): its counts since it was created.
    public func finish(accounting: ThreadAccounting = .current(), at time: Double = MonotonicClock.now()) {
        lock.lock()
        self.accounting = accounting
        ended = time
        lock.unlock()
    }

    /// `fonts' thread from 0.01 s after main: fontconfig 0.31 s, cairo and pango 0.05 s, done
    /// 0.37 s after main (0.25 s on a CPU, 0.03 s waiting for one, 0.09 s blocked (35 page
    /// reads, 900 other faults))`; each step from the end of the one before, the times from
    /// `mainStart`. A thread not yet ended says `still at work`; one not yet begun, `not begun`.
    public func summary(mainStart: Double) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let began else { return "\(name) not begun" }
        let parts = StartupTimeline.durations(of: steps, from: began)
        var line = "\(name) from \(StartupTimeline.seconds(began - mainStart)) after main"
        if !parts.isEmpty { line += ": " + parts.joined(separator: ", ") }
        guard let ended, let accounting else { return line + ", still at work" }
        return line + ", done \(StartupTimeline.seconds(ended - mainStart)) after main (" + accounting.describe(over: ended - began) + ")"
    }
}
