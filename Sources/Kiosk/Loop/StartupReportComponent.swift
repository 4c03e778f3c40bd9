import LinuxSystem

/// `run`'s start, logged once with the first frame of the carousel on screen
/// (`StartupTimeline.summary`): one journal line that says where the start went on this
/// machine — before `run` (the unit's sandbox, loading the binary), the config, the display, the
/// components, the first frame. (The input devices open after it: `InputDevicesComponent`.)
final class StartupReportComponent: KioskComponent {
    private var timeline: StartupTimeline
    private unowned let context: KioskContext
    private var reported = false

    init(timeline: StartupTimeline, context: KioskContext) {
        self.timeline = timeline
        self.context = context
    }

    /// Ends the step `name` now (`KioskApp.run`: the components attached).
    func mark(_ name: String) { timeline.mark(name, at: context.reactor.clock()) }

    func framePresented(_ frame: PresentedFrame) {
        guard !reported else { return }
        reported = true
        let shownAt = frame.time + frame.duration
        // Read here, on the loop's thread, which is the one that ran `main`.
        let accounting = timeline.accountingSummary(at: MonotonicClock.now(), shown: .current(),
                                                    processCPU: StartupTimeline.processCPUTime())
        let line = timeline.summary(shownAt: shownAt, drawing: frame.duration) + (accounting.map { "; " + $0 } ?? "")
            + (timeline.threadsSummary().map { "; " + $0 } ?? "")
        context.logger.info("start-up: \(line)")
    }
}
