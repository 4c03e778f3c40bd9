/// `[idle]`'s stages on time: wakes the driver at the next stage (attract, home, blank) and
/// carries it out (`KioskBehavior.updateIdle`). The kiosk and `simulate` both register it.
final class IdleTimer: KioskComponent {
    private let behavior: KioskBehavior

    init(behavior: KioskBehavior) { self.behavior = behavior }

    var nextDeadline: Double? { behavior.idle.nextDeadline }
    func deadlineReached(now: Double) { behavior.updateIdle(now: now) }
}
