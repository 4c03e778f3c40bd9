import Glibc
import KioskConfig
import Logging

/// Selection actions in the loop: the `ActionRunner` starts programs and emits events; this
/// component reaps them on SIGCHLD, runs their timeouts, follows `[actions]` on reload, kills
/// what is left at exit, and — for a foreground program — hands it the screen and the input
/// devices and takes them back when it exits, or when the person holds the home key
/// (`ForegroundLeaveKey`).
final class ActionsComponent: KioskComponent, ActionRunnerDelegate {
    let runner: ActionRunner
    private let leaveKey: ForegroundLeaveKey
    private unowned let context: KioskContext

    init(config: KioskConfiguration, context: KioskContext, signals: SignalHandlers) {
        let logger = Logger(label: "kiosk.actions")
        runner = ActionRunner(settings: config.actions, logger: logger)
        leaveKey = ForegroundLeaveKey(settings: config.actions, keymap: config.input.keymap, logger: logger)
        self.context = context
        context.behavior.performAction = { [unowned self] action, index, id, t in
            self.runner.perform(action, index: index, id: id, now: t)
        }
        runner.delegate = self
        signals.on(SIGCHLD) { [unowned self] in
            self.context.behavior.record(self.runner.reapChildren(now: self.context.now))
        }
    }

    /// A foreground program has the screen.
    var isForegroundActive: Bool { runner.isForegroundActive }
    var holdsFrames: Bool { runner.isForegroundActive }

    var nextDeadline: Double? { [runner.nextDeadline, leaveKey.deadline].compactMap { $0 }.min() }
    func deadlineReached(now: Double) {
        if let d = leaveKey.deadline, now >= d {
            leaveKey.fired()
            context.behavior.record(runner.endForeground(now: now))
        }
        context.behavior.record(runner.update(now: now))
    }

    func configAdopted(_ config: KioskConfiguration) {
        runner.update(settings: config.actions)
        leaveKey.update(settings: config.actions, keymap: config.input.keymap)
    }

    func stop(now: Double) {
        leaveKey.stop()
        context.behavior.record(runner.killAllAndWait(now: now))
    }

    func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        context.behavior.suspend(now: context.now)
        context.component(InputDevicesComponent.self)?.suspend()
        context.display.release()
        leaveKey.start(reactor: context.reactor)
    }

    func actionRunnerDidEndForeground(_ runner: ActionRunner) {
        leaveKey.stop()
        context.display.reacquire()
        context.component(InputDevicesComponent.self)?.resume()
        context.behavior.resume(now: context.now)
        context.session.requestFullFrame()
    }
}
