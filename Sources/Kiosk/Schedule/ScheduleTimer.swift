import LinuxSystem

/// `[[schedule]]` in the loop: wakes it at the schedule's next boundary (the behaviour opens or
/// closes the window), and when the wall clock is set — a `CLOCK_REALTIME` timerfd with
/// `TFD_TIMER_CANCEL_ON_SET` (NTP's first step on a board without a real-time clock, an
/// administrator) — the schedule is looked at again at once (its next boundary is recomputed
/// from the new wall time).
final class ScheduleTimer: KioskComponent {
    private unowned let context: KioskContext
    /// Readable when the wall clock is set (made when attached to a live loop; `simulate`'s
    /// virtual clock is never set).
    private var clockChange: TimerFD?

    init(context: KioskContext) {
        self.context = context
    }

    func attach(to reactor: Reactor) throws {
        let clockChange = try TimerFD(realtime: true)
        self.clockChange = clockChange
        try clockChange.watchClockChanges()
        try reactor.watch(clockChange.fd) { [unowned self, clockChange] in
            guard clockChange.clockWasSet() else { return }
            try? clockChange.watchClockChanges()
            if self.context.behavior.schedule.isActive {
                self.context.logger.info("the wall clock was set; looking at the schedule again")
                self.context.behavior.updateSchedule(now: self.context.now)
            }
        }
    }

    var nextDeadline: Double? { context.behavior.schedule.nextDeadline }

    func report(into health: inout KioskHealth) {
        let schedule = context.behavior.schedule
        health.scheduleOpen = schedule.isActive && schedule.isStarted ? schedule.openWindow != nil : nil
    }
    func deadlineReached(now: Double) { context.behavior.updateSchedule(now: now) }
}
