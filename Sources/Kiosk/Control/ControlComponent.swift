import Foundation
import KioskConfig
import LinuxSystem

/// The `[control]` socket in the loop: opened, moved or closed with every configuration adopted
/// (`ControlSocketService`), its commands answered in order (`ControlCommandHandler`), and what
/// reaches outside the carousel supplied here (`ControlEffects`: screenshots, the screen, the
/// facts of `state`). A `reload` is read off the loop: its reply is sent once the outcome is
/// known, in its place among the client's replies (the client's later replies wait for it;
/// other clients are answered meanwhile).
final class ControlComponent: KioskComponent, ControlEffects {
    let service: ControlSocketService
    private unowned let context: KioskContext

    /// Opens `[control] socket` of `config`; throws when it cannot (the kiosk does not start).
    init(config: KioskConfiguration, context: KioskContext) throws {
        self.context = context
        service = ControlSocketService(reactor: context.reactor, logger: context.logger)
        service.handle = { [unowned self] server in self.handle(server) }
        try service.adopt(config.control.socket)
    }

    /// The control socket open now; nil: none.
    var server: ControlServer? { service.server }

    /// A control socket given up by the last pass's reload: its replies have been sent.
    func prepare(now: Double) { service.closeRetired() }

    /// A socket that cannot be opened after the start is logged; the one open before stays.
    func configAdopted(_ config: KioskConfiguration) {
        do {
            try service.adopt(config.control.socket)
        } catch {
            context.logger.error("control socket \(config.control.socket ?? ""): \(error); \(service.server.map { "still listening on \($0.path)" } ?? "no control socket")")
        }
    }

    func stop(now: Double) { service.close() }

    /// What `control` received: commands answered in order, then their events written.
    func handle(_ control: ControlServer) {
        let t = context.now
        let behavior = context.behavior
        for request in control.takeRequests() {
            if case .reload = request.command {
                context.requestReload(reason: "control socket") { adopted in
                    control.reply(to: request, ControlCommandHandler.reloadReply(adopted: adopted, behavior: behavior))
                }
                continue
            }
            control.reply(to: request, ControlCommandHandler.handle(request.command, behavior: behavior, now: t, effects: self))
        }
        behavior.flushEvents()
    }

    // MARK: ControlEffects

    @discardableResult
    func reload(reason: String) -> Bool { context.component(ConfigReload.self)?.reload(reason: reason) ?? false }

    func writeScreenshot(to path: String) throws {
        do {
            try ScreenshotWriter.write(context.session.frame, to: path)
        } catch {
            // The client gets the reason; the journal too (a full disk is worth knowing).
            context.logger.error("screenshot for the control socket failed: \(error)")
            throw error
        }
    }

    var screenSize: (width: Int, height: Int) { (context.display.fullSize.width, context.display.fullSize.height) }
    var foregroundActive: Bool { context.component(ActionsComponent.self)?.isForegroundActive ?? false }
    var blanked: Bool { context.behavior.blanked }
    var fps: Double { context.component(FramePump.self)?.fps ?? 0 }
    var framesPresented: Int { context.component(FramePump.self)?.framesPresented ?? 0 }

    /// For `state`: the facts with the resident memory of now.
    var health: KioskHealth? {
        var h = context.health()
        h.residentBytes = KioskHealth.readResidentBytes()
        return h
    }
}
