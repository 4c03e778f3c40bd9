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
///
/// The file `run` started with was read without its fonts looked up and clips opened
/// (`StartingConfigCheck.afterFirstFrame`): the first pass of the loop, once the frame pump has
/// handed the first frame to the display (registered after it), reads it again with every check,
/// off the loop as a reload is read. A file that passes stays as it runs; one with problems gives
/// way to the problem card, as a start that had found them would have begun. Until that read's
/// outcome, any reload's outcome is taken as the check's.
final class ConfigReload: KioskComponent {
    private unowned let context: KioskContext
    let reloader: ConfigReloader
    /// The start's check after the first frame: owed, or being read since (the reactor's
    /// clock); nil once its outcome is known, or when none was owed.
    private var startCheck: StartCheck?
    private enum StartCheck {
        case owed
        case reading(since: Double)
    }

    init(context: KioskContext, signals: SignalHandlers, startingCheck: StartingConfigCheck = .done) throws {
        self.context = context
        reloader = try ConfigReloader(path: context.store.path, media: context.behavior.media)
        if case .afterFirstFrame(let parses) = startingCheck {
            startCheck = .owed
            reloader.parses = parses
        }
        reloader.apply = { [unowned self] loaded, reason in self.finish(loaded, reason: reason) }
        signals.on(SIGHUP) { [unowned self] in self.request(reason: "SIGHUP") }
        if !context.store.problems.isEmpty { showProblems(context.store.problems) }
    }

    /// The loop's first pass, after the first frame: the start's check is read off the loop.
    func prepare(now: Double) {
        guard case .owed? = startCheck else { return }
        startCheck = .reading(since: now)
        request(reason: "the start's check of fonts and clips")
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
        if let check = startCheck { return finishStartCheck(loaded, reason: reason, check: check) }
        if !context.store.problems.isEmpty { return startAfterProblems(loaded, reason: reason) }
        guard let new = context.behavior.apply(loaded, path: context.store.path, reason: reason, now: context.now,
                                               logger: context.logger) else { return false }
        context.adopted(new)
        return true
    }

    /// The outcome of the start's check (or of a reload read before it ended, which checked as
    /// much): the same file passing leaves the kiosk as it runs; a file changed since is adopted
    /// or refused as any reload; problems replace what runs with the problem card. True unless
    /// problems were found.
    private func finishStartCheck(_ loaded: Result<KioskConfiguration, any Error>, reason: String, check: StartCheck) -> Bool {
        startCheck = nil
        reloader.parses = nil
        let store = context.store, logger = context.logger
        var took = ""
        if case .reading(let since) = check { took = " in \(StartupTimeline.seconds(context.now - since))" }
        switch loaded {
        case .success(let checked) where checked == store.loaded:
            logger.info("start-up: fonts and clips checked after the first frame\(took): no problems")
            return true
        case .success:
            logger.info("start-up: fonts and clips checked after the first frame\(took); \(store.path) changed since the start")
            return finish(loaded, reason: reason)
        case .failure(let error):
            let problems = (error as? ConfigErrors)?.diagnostics
                ?? [ConfigDiagnostic(file: store.path, line: 0, column: 0, message: "\(error)")]
            logger.info("start-up: fonts and clips checked after the first frame\(took): \(problems.count) problem(s)")
            KioskBehavior.logStartProblems(problems, path: store.path, logger: logger)
            let waiting = KioskApp.configurationWhileInvalid(path: store.path)
            context.behavior.replaceStartingConfiguration(with: waiting, now: context.now)
            context.adopted(waiting)
            showProblems(problems)
            context.component(WatchdogComponent.self)?.updateStatus()
            return false
        }
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
