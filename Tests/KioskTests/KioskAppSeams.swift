import Cards
import Display
import Foundation
import LinuxSystem
@testable import Kiosk

/// What the kiosk tests drive and look at, reached through the components that own it (the
/// names the tests used when the app held it all). One loop pass is `Reactor.prepare`.
extension KioskApp {
    /// One loop pass's work before its sleep (the frame among it); returns how long the loop
    /// would sleep in milliseconds (-1: until something happens).
    @discardableResult
    func beforeWait() -> Int32 {
        reactor.prepare()
        guard let due = reactor.nextDeadline else { return -1 }
        return Int32(max(0, ((due - now) * 1000).rounded(.up)))
    }

    var reloader: ConfigReloader { component(ConfigReload.self).reloader }
    func requestReload(reason: String, then answer: ConfigReloader.Answer? = nil) {
        context.requestReload(reason: reason, then: answer)
    }
    var control: ControlServer? { component(ControlComponent.self).server }
    /// The control socket's part of a loop pass: its ready descriptors handled (commands
    /// answered as they arrive).
    func handleControl(_ server: ControlServer) {
        reactor.dispatchReady(only: server.descriptors)
        component(ControlComponent.self).handle(server)
    }
    var screenSize: (width: Int, height: Int) { component(ControlComponent.self).screenSize }
    var metrics: MetricsReporter? { component(MetricsComponent.self).reporter }
    var actions: ActionRunner { component(ActionsComponent.self).runner }
    func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        try component(ActionsComponent.self).actionRunnerWillStartForeground(runner)
    }
    func actionRunnerDidEndForeground(_ runner: ActionRunner) {
        component(ActionsComponent.self).actionRunnerDidEndForeground(runner)
    }
    var screenPowerMethod: ScreenPowerMethod? { component(ScreenBlanker.self).screenPowerMethod }
    var blackFramePending: Bool { component(ScreenBlanker.self).blackFramePending }
    var screenWatch: ScreenWatch { component(WatchdogComponent.self).screenWatch }
    func serviceWatchdog(now: Double) -> Int32? { component(WatchdogComponent.self).serviceWatchdog(now: now) }
    var usbStatusPath: String? { component(USBStatusComponent.self).statusPath }
    func usbStatusChanged() { component(USBStatusComponent.self).statusChanged() }
    var updates: UpdateStatusComponent { component(UpdateStatusComponent.self) }
    var files: MediaWatcher { component(WatchedFiles.self).files }
    func filesChanged() { component(WatchedFiles.self).changed() }
    var nextNoticeEnd: Double? { component(NoticeTimeout.self).nextDeadline }
    func endNoticeIfDue(now t: Double) {
        if let due = nextNoticeEnd, due <= t + 0.0005 { component(NoticeTimeout.self).deadlineReached(now: t) }
    }
    var nextPixelShift: Double? { component(PixelShiftTimer.self).nextDeadline }
    var scaleGovernor: RenderScaleGovernor? { component(RenderScaleComponent.self).governor }
    func renderScaleFrame(duration: Double) {
        component(RenderScaleComponent.self).framePresented(PresentedFrame(time: 0, duration: duration, count: framesPresented))
    }
    func renderScaleBetweenGestures() { component(RenderScaleComponent.self).prepare(now: now) }
    /// The monotonic time the loop's clock counts from.
    var start: Double { reactor.start }
    func readInput(_ fd: Int32) { component(InputDevicesComponent.self).read(fd) }
    /// Waits up to `timeout` s for the input devices opening on their own thread and has the
    /// loop take them (its eventfd handled); false when none were opening or they did not come.
    @discardableResult
    func awaitInputOpening(timeout: Double = 30) -> Bool {
        guard let fd = component(InputDevicesComponent.self).openingDescriptor, waitReadable(fd, timeout: timeout) else { return false }
        reactor.dispatchReady(only: [fd])
        return true
    }
    /// True while input devices open on their own thread.
    var inputsOpening: Bool { component(InputDevicesComponent.self).openingDescriptor != nil }
    func startLatencyTrace(_ trace: LatencyTrace) {
        let c = LatencyTraceComponent(trace: trace, context: context)
        context.register(c)
        try? c.attach(to: reactor)
    }
    /// What `run()` does with `startup`: the report registered, its components attached.
    func startStartupReport(_ timeline: StartupTimeline) {
        let c = StartupReportComponent(timeline: timeline, context: context)
        context.register(c)
        c.mark("attach")
    }
    /// What `run()` does with `textDrawnAhead`: its component registered and attached.
    func startTextDrawnAhead(_ text: OverlaysDrawnAhead) {
        try? registerTextDrawnAhead(text).attach(to: reactor)
    }
    static func modeText(width: Int, height: Int, refreshRate: Double) -> String {
        MetricsComponent.modeText(width: width, height: height, refreshRate: refreshRate)
    }
}

/// Unix time now (the wall clock the kiosk's facts use).
func wallClock() -> Double { WallClockTime.now() }
