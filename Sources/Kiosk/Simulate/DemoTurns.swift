/// The demo of `make run` (`simulate --demo`): the carousel turns by one item every `interval`
/// seconds, as an intent the kiosk gives itself (not activity: the idle timers keep counting).
final class DemoTurns: KioskComponent {
    private let behavior: KioskBehavior
    private let interval: Double
    private var next: Double

    init(every interval: Double, behavior: KioskBehavior) {
        self.behavior = behavior
        self.interval = interval
        next = interval
    }

    var nextDeadline: Double? { next }

    func deadlineReached(now: Double) {
        behavior.apply(.scrollBy(items: 1, duration: nil), now: now)
        next += interval
    }
}
