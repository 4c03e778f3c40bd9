import Foundation
import LinuxSystem

/// Commands from the control socket, answered in the loop by `ControlCommandHandler`; the kiosk
/// supplies the effects that reach outside the carousel.
extension KioskApp: ControlEffects {
    /// The control socket open now (`ConfiguredServices`); nil: none.
    var control: ControlServer? { services.control.server }

    /// What `control`'s descriptor has: commands answered in order, then their events written.
    /// A `reload` is read off the loop (`requestReload`): its reply is sent once the outcome is
    /// known, in its place among the client's replies (the client's later replies wait for it;
    /// other clients are answered meanwhile).
    func handleControl(_ control: ControlServer) {
        let t = now
        for request in control.handleEvents() {
            if case .reload = request.command {
                requestReload(reason: "control socket") { [unowned self] adopted in
                    control.reply(to: request, ControlCommandHandler.reloadReply(adopted: adopted, behavior: self.behavior))
                }
                continue
            }
            control.reply(to: request, ControlCommandHandler.handle(request.command, behavior: behavior, now: t, effects: self))
        }
        behavior.flushEvents()
    }

    public func writeScreenshot(to path: String) throws {
        do {
            try ScreenshotWriter.write(session.frame, to: path)
        } catch {
            // The client gets the reason; the journal too (a full disk is worth knowing).
            logger.error("screenshot for the control socket failed: \(error)")
            throw error
        }
    }

    public var screenSize: (width: Int, height: Int) { (display.fullSize.width, display.fullSize.height) }
    public var foregroundActive: Bool { actions.isForegroundActive }
    public var blanked: Bool { behavior.blanked }

    /// Frames per second over the last second (0 when still).
    public var fps: Double {
        let t = monotonicNow()
        let recent = presentTimes.filter { t - $0 <= 1 }
        return Double(recent.count)
    }
}
