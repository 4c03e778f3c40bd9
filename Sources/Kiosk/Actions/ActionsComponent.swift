import Glibc
import KioskConfig
import Logging

/// Selection actions in the loop: the `ActionRunner` starts programs and emits events; this
/// component reaps them on SIGCHLD, runs their timeouts, follows `[actions]` on reload, kills
/// what is left at exit, and — for a foreground program — hands it the screen and the input
/// devices and takes them back when it exits.
final class ActionsComponent: KioskComponent, ActionRunnerDelegate {
    let runner: ActionRunner
    private unowned let context: KioskContext

    init(settings: ActionSettings, context: KioskContext, signals: SignalHandlers) {
        runner = ActionRunner(settings: settings, logger: Logger(label: "kiosk.actions"))
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

    var nextDeadline: Double? { runner.nextDeadline }
    func deadlineReached(now: Double) { context.behavior.record(runner.update(now: now)) }

    func configAdopted(_ config: KioskConfiguration) { runner.update(settings: config.actions) }

    func stop(now: Double) { context.behavior.record(runner.killAllAndWait(now: now)) }

    func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        context.behavior.suspend(now: context.now)
        context.component(InputDevicesComponent.self)?.suspend()
        context.display.release()
    }

    func actionRunnerDidEndForeground(_ runner: ActionRunner) {
        context.display.reacquire()
        context.component(InputDevicesComponent.self)?.resume()
        context.behavior.resume(now: context.now)
        context.session.requestFullFrame()
    }
}
