import CarouselCore

/// `simulate`'s input script as a component: each event delivered at its own time (as the live
/// loop delivers the kernel's, not rounded to the step: the engine steps up to it, then takes
/// it), at the first step at or after it.
final class ScriptedInput: KioskComponent {
    private unowned let context: KioskContext
    private var pending: ArraySlice<TimedInputEvent>

    init(_ script: [TimedInputEvent], context: KioskContext) {
        self.context = context
        pending = script[...]
    }

    /// Scripted input is still to come.
    var hasPending: Bool { !pending.isEmpty }

    var nextDeadline: Double? { pending.first?.time }

    func deadlineReached(now: Double) {
        while let e = pending.first, e.time <= now + Simulator.tolerance {
            pending = pending.dropFirst()
            context.input(e.event, now: max(0, e.time))
        }
    }
}
