/// The engine's tick on a virtual clock: one at every step of the driver (`Simulator`), after
/// the step's input, idle stages and demo.
final class StepTick: KioskComponent {
    private let behavior: KioskBehavior
    /// The time of the step being run.
    var stepTime = 0.0

    init(behavior: KioskBehavior) { self.behavior = behavior }

    var nextDeadline: Double? { stepTime }
    func deadlineReached(now: Double) { behavior.tick(now: now) }
}
