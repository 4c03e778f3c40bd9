import Cards
import Foundation
import Glibc
import KioskConfig
import LinuxSystem

/// Configuration changes in the loop: SIGHUP, the `reload` command, the config file or the items
/// folder changed (`WatchedFiles`), new USB content. The file is read off the loop
/// (`ConfigReloader`: read, validated and its clips probed on a worker thread), then adopted —
/// every component told (`KioskContext.adopted`) — or refused, keeping what is shown.
///
/// Starting without a valid configuration: `run` with a config file that does not validate (or
/// is missing, or unreadable) does not exit — systemd would restart it forever over a black
/// screen. The screen shows the problems instead (`MessageCard.configProblems`), the file stays
/// watched, and the first valid file starts the carousel, without a restart. A file that is still
/// wrong updates the card.
final class ConfigReload: KioskComponent {
    private unowned let context: KioskContext
    let reloader: ConfigReloader

    init(context: KioskContext, signals: SignalHandlers) throws {
        self.context = context
        reloader = try ConfigReloader(path: context.store.path, media: context.behavior.media)
        reloader.apply = { [unowned self] loaded, reason in self.finish(loaded, reason: reason) }
        signals.on(SIGHUP) { [unowned self] in self.request(reason: "SIGHUP") }
        if !context.store.problems.isEmpty { showProblems(context.store.problems) }
    }

    func attach(to reactor: Reactor) throws {
        try reactor.watch(reloader.fd) { [unowned self] in
            self.reloader.finish()
            self.context.behavior.flushEvents()  // what the reload changed on the carousel, as after a command
        }
    }

    /// Reloads the config file off the loop; `answer` hears whether it was adopted, once known.
    func request(reason: String, then answer: ConfigReloader.Answer? = nil) {
        reloader.request(reason: reason, then: answer)
    }

    /// Parses and validates the config again on the calling thread (clips probed here too) and
    /// applies it; on any error keeps the running one (and returns false). For tests and tools
    /// that drive the kiosk without its loop; the loop itself reloads with `request`.
    @discardableResult
    func reload(reason: String) -> Bool {
        finish(KioskBehavior.load(path: context.store.path, media: context.behavior.media), reason: reason)
    }

    /// Adopts what a reload read (`KioskBehavior.load`), or refuses it and keeps what is shown:
    /// the running configuration, or the start-up problem card.
    @discardableResult
    func finish(_ loaded: Result<KioskConfiguration, any Error>, reason: String) -> Bool {
        // Watched again also when the reload is refused: an items folder deleted and made
        // again is a new folder to watch, at the same path.
        defer { context.component(WatchedFiles.self)?.watchAll() }
        if !context.store.problems.isEmpty { return startAfterProblems(loaded, reason: reason) }
        guard let new = context.behavior.apply(loaded, path: context.store.path, reason: reason, now: context.now,
                                               logger: context.logger) else { return false }
        context.adopted(new)
        return true
    }

    /// Shows `problems` on the screen instead of the carousel.
    private func showProblems(_ problems: [ConfigDiagnostic]) {
        context.store.problems = problems
        context.behavior.sceneCards.message = MessageCard.configProblems(problems, file: context.store.path)
    }

    /// The config file was read while the problem card shows: start the carousel if the file is
    /// valid now, else show its new problems. True when it started.
    private func startAfterProblems(_ loaded: Result<KioskConfiguration, any Error>, reason: String) -> Bool {
        let store = context.store, behavior = context.behavior, session = context.session
        let booted = session.config.display
        guard let new = behavior.apply(loaded, path: store.path, reason: reason, now: context.now, logger: context.logger,
                                       kept: "the problem card", rescues: true) else {
            let problems = behavior.lastReloadProblems.isEmpty ? store.problems : behavior.lastReloadProblems
            if problems != store.problems {
                showProblems(problems)
                context.component(WatchdogComponent.self)?.updateStatus()
            }
            return false
        }
        store.problems = []
        behavior.sceneCards.message = nil
        context.logger.notice("\(store.path) is valid now: starting the carousel with \(new.items.count) items")
        // render_scale (RenderScaleComponent) and the pixel shift (the session's reload) apply at
        // once; the rest of [display] at the next start.
        context.adopted(new)
        var others = new.display
        others.renderScale = booted.renderScale
        others.pixelShift = booted.pixelShift
        others.pixelShiftInterval = booted.pixelShiftInterval
        if others != booted {
            context.logger.warning("[display] settings take effect at the next start (the display was opened with what could be read of them)")
        }
        context.component(InputDevicesComponent.self)?.reopenFor(new)
        context.component(WatchdogComponent.self)?.updateStatus()
        return true
    }
}
