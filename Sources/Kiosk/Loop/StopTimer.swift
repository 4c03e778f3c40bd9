/// `exitAfter`: stops the loop by itself after a number of seconds (tests, measurements).
final class StopTimer: KioskComponent {
    /// The loop's time to stop at.
    let nextDeadline: Double?
    private let stop: () -> Void

    init(after seconds: Double, stop: @escaping () -> Void) { nextDeadline = seconds; self.stop = stop }

    func deadlineReached(now: Double) { stop() }
}
