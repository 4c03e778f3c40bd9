/// Selection actions: a foreground program gets the screen and the input devices, and the
/// kiosk takes them back when it exits.
extension KioskApp: ActionRunnerDelegate {
    public func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        behavior.suspend(now: now)
        inputs.forEach { $0.suspend() }
        display.release()
    }

    public func actionRunnerDidEndForeground(_ runner: ActionRunner) {
        display.reacquire()
        inputs.forEach { $0.resume() }
        behavior.resume(now: now)
        session.requestFullFrame()
    }
}
