import LinuxSystem

/// `exitAfter`: stops the loop by itself after a number of seconds (tests, measurements).
final class StopTimer: KioskComponent {
    private let after: Double
    private unowned let reactor: Reactor

    init(after: Double, reactor: Reactor) {
        self.after = after
        self.reactor = reactor
    }

    var nextDeadline: Double? { after }
    func deadlineReached(now: Double) { reactor.stop() }
}
