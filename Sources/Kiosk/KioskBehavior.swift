import Cards
import CarouselCore
import KioskConfig
import Logging

/// What the kiosk does with people's input and with time, apart from devices: the idle stages
/// (attract, home, blank, wake), selection actions and the event stream. `KioskApp` (real
/// clock, real programs) and `Simulator` (virtual clock, actions reported but not started)
/// share it, so `simulate` shows exactly what a kiosk does.
public final class KioskBehavior {
    public let session: CarouselSession
    /// Burn-in care (`[display] pixel_shift`): moves the session's scene over time.
    public let pixelShift: PixelShiftState
    /// The message cards shown over or instead of the carousel (problem card, notice, empty face).
    public let sceneCards: SceneCards
    /// The clips: the centred card's and one on the whole screen.
    public let video: SceneVideo
    public let idle: IdleController
    /// The language shown (`[languages]`): `language.current` is its code (`"en"`, `"de"`),
    /// which speech reads for its voice.
    public let language: LanguageController
    /// The `large_text`, `high_contrast` and `pause` keys (issue 30).
    let accessibilityKeys: AccessibilityKeys
    /// `[[schedule]]`: opening hours (replaced on reload, keeping its clock and start).
    public private(set) var schedule: ScheduleController
    /// The configuration, held once: as loaded (every item; the session shows it, or the open
    /// window's `items` of it: `shownConfig`), its generation and the reloads refused.
    public let store: ConfigStore
    /// The item ids the session was last given by the schedule (nil: every item).
    private var shownItems: [String]?
    private let scheduleLogger: Logger
    public let log: EventLog
    /// What a reload reads of the pictures and clips the file names: the same checks as
    /// `check-config` and `simulate` (`MediaFileCheck.kiosk`), so a clip they refuse refuses the
    /// reload too.
    public let media: MediaChecks
    /// Runs a selected item's action and returns what happened at once.
    public var performAction: (_ action: ItemAction, _ index: Int, _ id: String, _ now: Double) -> [ActionEvent]
    /// Called with every event line written (the control socket broadcasts them).
    public var onEventLine: ((String) -> Void)?
    /// The screen should go black (blank) or show the carousel again (wake).
    public var onBlank: (() -> Void)?
    public var onWake: (() -> Void)?
    /// True while the screen is blanked.
    public private(set) var blanked = false
    /// Selections per item id since the start (metrics, `state`).
    public private(set) var selections: [String: Int] = [:]
    /// Actions that could not start or timed out.
    public private(set) var actionFailures = 0
    /// Clips that could not play (`video_failed`).
    public private(set) var videoFailures = 0

    /// - Parameters:
    ///   - wallClock: the local time `[[schedule]]` reads (`SystemWallClock` in a kiosk, a
    ///     `ManualWallClock` for `simulate --wall-clock` and tests).
    ///   - configPath: the config file (empty: none, as for `simulate`'s plan); `configProblems`:
    ///     why it could not be used (the kiosk shows them until it is fixed).
    ///   - pixelShiftPhase: seconds added to the time before the pixel shift's step is looked up
    ///     (the live loop passes the wall clock, so a restart does not go back to the centre;
    ///     `simulate` passes 0: its first frame is unshifted).
    public init(session: CarouselSession, log: EventLog, now: Double, pixelShiftPhase: Double = 0,
                wallClock: WallClock = SystemWallClock(), logger: Logger = Logger(label: "kiosk.schedule"),
                media: MediaChecks = MediaFileCheck.kiosk, configPath: String = "", configProblems: [ConfigDiagnostic] = [],
                performAction: @escaping (ItemAction, Int, String, Double) -> [ActionEvent]) {
        self.session = session
        pixelShift = PixelShiftState(session: session, phase: pixelShiftPhase)
        sceneCards = SceneCards(session: session)
        video = SceneVideo(session: session)
        self.media = media
        self.log = log
        self.performAction = performAction
        store = ConfigStore(path: configPath, loaded: session.config, problems: configProblems)
        scheduleLogger = logger
        idle = IdleController(policy: IdlePolicy(session.config.idle), now: now)
        language = LanguageController(settings: session.config.languages)
        accessibilityKeys = AccessibilityKeys(session: session, idle: idle)
        schedule = ScheduleController(windows: session.config.schedule, defaults: session.config.scheduleDefaults,
                                      clock: wallClock, now: now, logger: logger)
    }

    /// Looks at the wall clock (call when `schedule.nextDeadline` has passed, or the wall clock
    /// was set): writes `schedule_opened` / `schedule_closed`, gives the idle stages the
    /// schedule's override and the session the window's items.
    public func updateSchedule(now: Double) {
        let events = schedule.update(now: now)
        for e in events {
            let l = schedule.eventLine(e)
            line(time: now, name: l.name, fields: l.fields)
        }
        applySchedule(now: now)
        flushEvents()
    }

    /// The configuration the session shows: `loadedConfig`, with only the open window's items
    /// when it names some (`home_item` follows its item, or is the first).
    public static func shownConfig(_ config: KioskConfiguration, items ids: [String]?) -> KioskConfiguration {
        guard let ids else { return config }
        var c = config
        let homeID = config.items.indices.contains(config.idle.homeItem) ? config.items[config.idle.homeItem].id : nil
        c.items = ids.compactMap { id in config.items.first { $0.id == id } }
        c.idle.homeItem = homeID.flatMap { id in c.items.firstIndex { $0.id == id } } ?? 0
        return c
    }

    private func applySchedule(now: Double) {
        applyIdle(idle.setScheduleOverride(schedule.idleOverride, now: now), now: now)
        let wanted = schedule.shownItems
        if wanted != shownItems {
            shownItems = wanted
            showLoadedConfig(now: now)
        }
    }

    /// An action performer for `simulate`: `emit` as in a kiosk, programs reported, not started.
    public static func simulatedAction(_ action: ItemAction, index: Int, id: String, now: Double) -> [ActionEvent] {
        switch action {
        case .none: return []
        case .emit(let value): return [ActionEvent(time: now, index: index, id: id, kind: .emitted(value: value))]
        case .exec(let argv, let mode, _, _, _):
            return [ActionEvent(time: now, index: index, id: id, kind: .skipped(argv: argv, mode: mode.rawValue))]
        case .play:
            // Played by the session itself (`KioskBehavior` starts it), in `simulate` too.
            return []
        }
    }

    /// One input event: the idle state machine sees it first (the first touch after blanking
    /// only wakes), then the gestures.
    public func input(_ event: InputEvent, now: Double) {
        let verdict = idle.handle(event, now: now)
        applyIdle(verdict.actions, now: now)
        if verdict.deliver {
            var changed = false
            let badgeShown = sceneCards.shownMessage == nil && !video.isPlayingFullscreen
            let effect = accessibilityKeys.effect(of: event)
            // The timers started again: "Do you need more time?" has its answer.
            if effect != nil { endIdleWarning() }
            switch effect {
            case .look(let look)?:
                session.setLook(look, now: now)
                line(time: now, name: "look_changed", fields: AccessibilityKeys.lookFields(look))
            case .pause(let paused)?:
                applyIdle(idle.setAttractPaused(paused, now: now), now: now)
            case nil where language.take(event, session: session, badgeShown: badgeShown, changed: &changed):
                if changed { languageChanged(now: now) }
            case nil where event.speechKey != nil:
                // How the kiosk speaks, not what it shows (SpeechComponent heard it first): a
                // notice or a full-screen clip stays.
                break
            case nil:
                session.handle(event, now: now)
            }
        }
        flushEvents()
    }

    /// An intent the kiosk gives itself (the demo of `make run`): not activity, the idle
    /// timers keep counting.
    public func apply(_ intent: Intent, now: Double) {
        session.apply(intent, now: now)
        flushEvents()
    }

    /// The intent of a control command that moves the carousel (`scroll_to`, `scroll_by`,
    /// `select`): activity, as a touch is — it ends attract mode, wakes a blanked screen and
    /// restarts the idle timers — and then applied (unlike a touch, the command that wakes the
    /// screen is not swallowed: another system asked for this item). The caller writes the
    /// events (`flushEvents()`) once its batch of commands is done.
    public func command(_ intent: Intent, now: Double) {
        let idleActions = idle.inputOccurred(now: now)
        if !idleActions.isEmpty { applyIdle(idleActions, now: now) }
        endIdleWarning()
        // Another system asked for an item: a full-screen clip gives way to it.
        video.stopFullscreen(reason: "command", now: now)
        session.apply(intent, now: now)
    }

    /// One engine tick (the clips' frames are picked on it too).
    public func tick(now: Double) {
        write(session.tick(now: now))
        writeVideoEvents()
    }

    /// The clips' news at `now` — frames due, a clip's start, end or failure — shown and written:
    /// what `tick` does for them, for the kiosk's loop when a player wakes it or a frame is due
    /// while nothing else moves (`VideoFrames`).
    public func updateVideo(now: Double) {
        video.update(now: now)
        writeVideoEvents()
    }

    /// Carries out the idle stages due at `now` (call when `idle.nextDeadline` has passed).
    public func updateIdle(now: Double) {
        applyIdle(idle.update(now: now), now: now)
    }

    /// A foreground program took the screen: idle stages pause.
    public func suspend(now: Double) { applyIdle(idle.suspend(now: now), now: now) }

    /// The kiosk has the screen again: idle stages count from now.
    public func resume(now: Double) { idle.resume(now: now) }

    /// Parses and validates `path` again and applies it; on any problem keeps the running
    /// configuration and logs every `FILE:LINE:COLUMN` problem. A file with no items at all is
    /// refused too when items are shown now. Writes a `reloaded` event (`ok`; on a refusal the
    /// problems as `check-config` prints them: `ReloadReport`). Returns the new configuration,
    /// or nil when kept.
    /// `store.lastReloadProblems` holds the problems of the last refused file (empty after a success).
    /// - Parameter kept: what is kept on a problem, for the log ("the running configuration", or
    ///   the start-up problem card while no valid file was ever read).
    @discardableResult
    public func reload(path: String, reason: String, now: Double, logger: Logger,
                       kept: String = "the running configuration") -> KioskConfiguration? {
        apply(Self.load(path: path, media: media), path: path, reason: reason, now: now, logger: logger, kept: kept)
    }

    /// Reads, validates and checks the media of `path` (`ConfigLoader.loadForRun` with `media`):
    /// the part of a reload that touches no state, so the kiosk runs it on a worker thread
    /// (`ConfigReloader`: a clip's probe must not stall the loop); `simulate` runs it in line
    /// (`reload`), its virtual clock standing still meanwhile.
    /// `parses`: the parse of the same text is taken from there if it holds it.
    public static func load(path: String, media: MediaChecks, parses: ParsedTextCache? = nil) -> Result<KioskConfiguration, any Error> {
        Result { try ConfigLoader.loadForRun(path: path, media: media, parses: parses) }
    }

    /// The rest of `reload`, on the thread that owns the behaviour: `loaded` (what `load` read)
    /// adopted, or refused with its problems, exactly as `reload` says.
    ///
    /// A file with problems read as a rescue (`ConfigLoader.loadForRun`: a USB stick's content
    /// over what can be read of the file, `machineProblems`) is adopted only where there is no
    /// good file to keep: while the start-up problem card shows (`rescues`), or when what runs
    /// is itself such a rescue. Over a good configuration it is refused like any broken file: a
    /// mistaken edit of `[display]` must not drop that table while a stick's content is current.
    @discardableResult
    public func apply(_ loaded: Result<KioskConfiguration, any Error>, path: String, reason: String, now: Double,
                      logger: Logger, kept: String = "the running configuration", rescues: Bool = false) -> KioskConfiguration? {
        store.lastReloadProblems = []
        do {
            let new = try loaded.get()
            if !new.machineProblems.isEmpty && !rescues && store.loaded.machineProblems.isEmpty {
                throw ConfigErrors(new.machineProblems)
            }
            Self.logLoaded(new, logger: logger)
            if new.items.isEmpty && !session.config.items.isEmpty {
                // An empty file (caught half-written) or an emptied items folder: keep showing
                // what is shown rather than a carousel of nothing.
                logger.error("kept the running configuration: \(path) has no items (a file written in place, or an emptied items folder?)")
                refused([ConfigDiagnostic(file: path, line: 0, column: 0, message: "has no items")], now: now)
                return nil
            }
            show(new, now: now)
            store.generation += 1
            logger.notice("reloaded \(path) (\(reason)): \(new.items.count) items")
            line(time: now, name: "reloaded", fields: ReloadReport.fields(adopted: true, problems: []))
            return new
        } catch let e as ConfigErrors {
            if e.diagnostics.count == 1 {
                // One problem, one line (a missing items folder, a typo).
                logger.error("kept \(kept): \(e.diagnostics[0].description)")
            } else {
                for d in e.diagnostics { logger.error("\(d.description)") }
                logger.error("kept \(kept): \(path) has \(e.diagnostics.count) problem(s)")
            }
            refused(e.diagnostics, now: now)
        } catch {
            logger.error("reload of \(path) failed: \(error); kept \(kept)")
            refused([ConfigDiagnostic(file: path, line: 0, column: 0, message: "\(error)")], now: now)
        }
        return nil
    }

    /// `new` becomes what the kiosk shows: the schedule, the languages, the shown items and the
    /// idle stages follow it (a `language` line when the language shown changed).
    private func show(_ new: KioskConfiguration, now: Double) {
        store.loaded = new
        if new.schedule != schedule.windows || new.scheduleDefaults != schedule.defaults {
            schedule = ScheduleController(windows: new.schedule, defaults: new.scheduleDefaults, clock: schedule.clock,
                                          now: now, started: schedule.started, logger: scheduleLogger)
            if !schedule.isActive { applyIdle(idle.setScheduleOverride(nil, now: now), now: now) }
            shownItems = nil
            // A new schedule reports the state it finds, as at start.
            for e in schedule.update(now: now) {
                let l = schedule.eventLine(e)
                line(time: now, name: l.name, fields: l.fields)
            }
        }
        shownItems = schedule.shownItems
        let languageChanged = language.reconfigure(new.languages)
        showLoadedConfig(now: now)
        if languageChanged { line(time: now, name: "language", fields: language.eventFields) }
        applyIdle(idle.reconfigure(IdlePolicy(Self.shownConfig(new, items: shownItems).idle), now: now), now: now)
        applyIdle(idle.setScheduleOverride(schedule.idleOverride, now: now), now: now)
    }

    /// The file the kiosk started with failed the check of its fonts and clips made after the
    /// first frame (`ConfigReload`): `waiting` (`KioskApp.configurationWhileInvalid`) replaces it,
    /// as a start that had found those problems would have begun. Not a reload: no `reloaded`
    /// line, the generation stays.
    func replaceStartingConfiguration(with waiting: KioskConfiguration, now: Double) {
        show(waiting, now: now)
    }

    /// A reload refused for `problems`: counted, kept for the caller, and the `reloaded` event.
    private func refused(_ problems: [ConfigDiagnostic], now: Double) {
        store.lastReloadProblems = problems
        store.loadErrors += 1
        line(time: now, name: "reloaded", fields: ReloadReport.fields(adopted: false, problems: problems))
    }

    /// Writes what the engine reported since the last tick (selections start their actions).
    public func flushEvents() {
        write(session.takeEvents())
        writeVideoEvents()
    }

    /// The configuration as loaded (`store.loaded`).
    public var loadedConfig: KioskConfiguration { store.loaded }
    /// 1 for the configuration loaded at start, +1 at every reload applied (`store.generation`).
    public var configGeneration: Int { store.generation }
    /// Reloads refused (`store.loadErrors`).
    public var configLoadErrors: Int { store.loadErrors }
    /// The problems of the last refused reload (`store.lastReloadProblems`).
    public var lastReloadProblems: [ConfigDiagnostic] { store.lastReloadProblems }

    /// Writes the clips' lines; a full-screen clip that ended lets the idle stages count again.
    private func writeVideoEvents() {
        for e in video.takeEvents() {
            if e.name == "video_failed" { videoFailures += 1 }
            line(time: e.time, name: e.name, fields: e.fields)
            if e.name == "video_fullscreen_ended" { idle.resume(now: e.time) }
        }
    }

    /// Writes action events (started, exited, timeouts…).
    public func record(_ events: [ActionEvent]) {
        for e in events {
            switch e.kind {
            case .failed, .timeout: actionFailures += 1
            default: break
            }
            line(time: e.time, name: e.name, fields: e.fields)
        }
    }

    /// Says, once per load, the config's warnings (as check-config prints them) and which USB
    /// content is shown or why it is not (its problems).
    public static func logLoaded(_ config: KioskConfiguration, logger: Logger) {
        // check-config's warnings (the config is used; something in it will not work as meant).
        for w in config.warnings { logger.warning("\(w.description)") }
        if let file = config.importedContent { logger.info("content from a USB stick: \(file)") }
        for d in config.importedContentProblems { logger.error("USB content not used: \(d.description)") }
        if !config.machineProblems.isEmpty {
            for d in config.machineProblems { logger.error("\(d.description)") }
            logger.error("\(config.file) has \(config.machineProblems.count) problem(s): showing the USB stick's content with what can be read of it")
        }
    }

    /// The problems of the file the kiosk starts with, each at its place, and what the screen
    /// does about them (`run` at start, or `ConfigReload` when the check after the first frame
    /// finds them).
    public static func logStartProblems(_ problems: [ConfigDiagnostic], path: String, logger: Logger) {
        for d in problems { logger.error("\(d.description)") }
        logger.error("\(path) has \(problems.count) problem(s): showing them on the screen until the file is fixed")
    }

    /// Writes one event line and hands it to `onEventLine`.
    public func line(time: Double, name: String, fields: [(String, String)] = []) {
        log.write(time: time, name: name, fields: fields)
        if let last = log.lines.last { onEventLine?(last) }
    }

    private func write(_ events: [TimedCarouselEvent]) {
        let items = session.config.items
        for e in events {
            log.write(e, items: items)
            if let last = log.lines.last { onEventLine?(last) }
            if case .selected(let i) = e.event, items.indices.contains(i) {
                selections[items[i].id, default: 0] += 1
                if case .play = items[i].action {
                    // A clip on the whole screen: the idle stages wait for it, as for a
                    // foreground program (a ten-minute film is not "nobody there").
                    video.playFullscreen(index: i, now: e.time)
                    if video.isPlayingFullscreen { applyIdle(idle.suspend(now: e.time), now: e.time) }
                } else {
                    record(performAction(items[i].action, i, items[i].id, e.time))
                }
            }
        }
    }

    private func applyIdle(_ list: [IdleAction], now t: Double) {
        for a in list {
            line(time: t, name: a.eventName, fields: a.eventFields)
            switch a {
            case .attractBegan(let speed):
                if let speed { setAutoscroll(speed, now: t) }
            case .attractEnded:
                // Paused (`pause` key): the carousel's own autoscroll stays stopped too.
                let resting = idle.isAttractPaused ? 0 : session.config.carousel.autoscroll
                if session.autoscroll != resting {
                    setAutoscroll(resting, now: t)
                    // Settle on the nearest item rather than stopping between two.
                    session.apply(.scrollTo(index: session.position.index, duration: nil), now: t)
                }
            case .advance:
                let p = session.position
                if p.index >= p.itemCount - 1 && !p.wraps {
                    session.apply(.scrollTo(index: 0, duration: nil), now: t)
                } else {
                    session.apply(.step(1), now: t)
                }
            case .goHome(let index):
                endIdleWarning()
                // The next person starts in the default language (after the blank below too).
                if language.returnToDefault() { languageChanged(now: t) }
                session.apply(.scrollTo(index: index, duration: nil), now: t)
                // The next person starts with the look the file sets.
                let configured = AccessibleLook(session.config.accessibility)
                if session.look != configured {
                    session.setLook(configured, now: t)
                    line(time: t, name: "look_changed", fields: AccessibilityKeys.lookFields(configured))
                }
            case .warn(let until):
                sceneCards.showNotice(until: until) { MessageCard.idleWarning(language: $0) }
            case .attractPaused:
                session.setAutoscroll(0, now: t)
                session.apply(.scrollTo(index: session.position.index, duration: nil), now: t)
            case .attractResumed:
                setAutoscroll(session.config.carousel.autoscroll, now: t)
            case .blank:
                endIdleWarning()
                if language.returnToDefault() { languageChanged(now: t) }
                blanked = true
                video.setSuspended(true, now: t)
                onBlank?()
            case .wake:
                blanked = false
                video.setSuspended(false, now: t)
                session.requestFullFrame()
                onWake?()
            }
        }
        write(session.takeEvents())
    }

    /// The session shows the loaded configuration (the open window's items of it) in the
    /// language shown now; a paused attract mode (`pause` key) keeps the carousel's own
    /// autoscroll stopped, which the reload would start again.
    private func showLoadedConfig(now: Double) {
        session.reload(Self.shownConfig(store.loaded, items: shownItems).localized(to: language.current), now: now)
        if idle.isAttractPaused { session.setAutoscroll(0, now: now) }
    }

    /// The language shown changed: the cards, the overlays and the kiosk's own cards are drawn
    /// in it, and the `language` event says so.
    private func languageChanged(now: Double) {
        showLoadedConfig(now: now)
        line(time: now, name: "language", fields: language.eventFields)
    }

    /// Ends "Do you need more time?" when what it warned of happens, or the timers start again
    /// without a press that ends it (a look or pause key, a control command).
    private func endIdleWarning() {
        if sceneCards.notice?.card == MessageCard.idleWarning(language: language.current) { sceneCards.endNotice() }
    }

    /// The engine's autoscroll speed (attract mode's, or the configured one afterwards).
    private func setAutoscroll(_ speed: Double, now t: Double) {
        session.setAutoscroll(speed, now: t)
    }
}
