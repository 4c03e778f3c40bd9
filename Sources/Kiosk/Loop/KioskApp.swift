import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import LinuxSystem
import Logging
import Raster
import Cards

/// The program a kiosk boots into: one thread, one epoll over the display, the input devices,
/// the engine tick, signals, the card workers, the control socket and the config and media
/// files. With a still carousel it sleeps in `epoll_wait` with no timeout: no frames, no CPU.
///
/// The loop's concerns live in one file each: this one (set-up, the loop, input, frames,
/// signals), `KioskApp+Reload` (config and media changes), `KioskApp+Idle` (blank and wake),
/// `KioskApp+Control` and `KioskApp+Actions`.
public final class KioskApp {
    public let configPath: String
    public let session: CarouselSession
    /// Idle stages, selection actions and the event stream (shared with `simulate`).
    public let behavior: KioskBehavior
    let display: DisplayBackend
    var inputs: [InputSource]
    let logger: Logger
    let loop: EventLoop
    let tick: TickTimer
    let signals: SignalWatcher
    /// inotify on the config file's folder, the images' folders and the items folder.
    let files: MediaWatcher
    var inputFDs: [Int32] = []
    var exitCode: Int32 = 0
    let exitAfter: Double?
    let start: Double
    /// Kernel input timestamps → the loop's clock.
    var inputClock: InputClock
    /// Frames presented since start (for `state` and the idle measurement; black frames of a
    /// blank are not counted).
    public internal(set) var framesPresented = 0
    /// systemd's notify socket; nil when not started by a service manager that listens.
    let notifier: SystemdNotifier?
    /// The screen's health, which decides whether the watchdog is pinged (`serviceWatchdog`).
    var screenWatch: ScreenWatch
    /// What `STATUS=` says while the screen is healthy (set with `READY=1`).
    var healthyStatus: String?
    let actions: ActionRunner
    /// The `[metrics]` file, the `[control]` socket and the `[usb]` content folder, brought in
    /// line with every configuration adopted (`adopt`).
    let services: ConfiguredServices
    /// Armed once for the next idle stage or action timeout.
    let serviceTimer: TickTimer
    /// The deadline `serviceTimer` is armed for.
    var serviceDeadline: Double?
    /// Readable when the wall clock is set (`watchClockChanges`).
    var clockChange: TimerFD?
    /// When recent frames were presented (monotonic seconds), for `state`'s fps.
    var presentTimes: [Double] = []
    /// How the display switched the screen off for the current blank; nil: not blanked, or
    /// blanked with a black frame.
    var screenPowerMethod: ScreenPowerMethod?
    /// Blanked with a black frame that is not on screen yet (the display could not take it).
    var blackFramePending = false
    /// Changes in the items folder wait for 0.3 s of quiet (at most 3 s) before a reload.
    var folderSettle = QuietPeriod(quiet: 0.3, longest: 3)
    /// The items folder itself was deleted, moved or made since its last listing.
    var itemsFolderReplaced = false
    /// The last listing of the items folder was refused (it was empty or gone): the items shown
    /// are not what the folder holds.
    var itemsFolderStale = false
    /// Folders that could not be watched, already logged (said once, not at every reload).
    var reportedUnwatchable: Set<String> = []
    /// Where `run()` writes input-to-photon latency (`run --latency-trace`); nil: not measured,
    /// at no cost. Set before `run()`; closed when it returns.
    public var latencyTrace: LatencyTrace?
    /// `run --shot`: PNG files of the headless screen at given times; nil: none. Set before `run()`.
    public var timedShots: TimedShots?
    /// Measures latency while `latencyTrace` is set (`KioskApp+Latency`).
    var latency: LatencyRecorder?
    /// The problems of the config file while no valid one was ever read (`run` started with a
    /// file that does not validate, or none): the screen shows them (`MessageCard`) and the
    /// file is watched; the first valid file starts the carousel (`KioskApp+Startup`). Empty
    /// once the carousel runs.
    public internal(set) var configProblems: [ConfigDiagnostic] = []
    /// Opens the input devices again for the configuration that replaced the start-up problem
    /// card (`[input]` was not known when they were opened); nil: keep the devices open.
    public var reopenInputs: ((KioskConfiguration) -> [InputSource])?
    /// Unix time: of the start, of the last frame presented, of the last input event read.
    let startWallTime: Double
    var lastFrameWallTime: Double?
    var lastInputWallTime: Double?
    /// Frames the display refused, and times the screen became unhealthy (`errors{kind="display"}`).
    var displayErrors = 0
    /// `[display] render_scale` as configured, and its governor when it is `"auto"`
    /// (`KioskApp+RenderScale`).
    var renderScaleSetting: RenderScaleSetting
    var scaleGovernor: RenderScaleGovernor?
    /// The item ids of the configuration generation they were taken from (not copied at each pass).
    var itemIDs: (generation: Int, ids: [String]) = (0, [])
    /// The last USB import status shown (`KioskApp+USB`): the same file seen again is not news.
    var lastUSBStatus: ImportStatus?
    /// Reloads read off the loop, one at a time, the newest file winning (`KioskApp+Reload`).
    let reloader: ConfigReloader

    /// - Parameters:
    ///   - exitAfter: stop by itself after this many seconds (tests, measurements); nil: run until a signal.
    ///   - notifier: systemd's notify socket (default: from `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`).
    ///   - configProblems: why `configPath` could not be used (non-empty: `config` is the
    ///     defaults with what could be read of `[display]`); the screen shows them until the
    ///     file is fixed (`KioskApp+Startup`).
    ///   - scheduleClock: the local time `[[schedule]]` reads (the reload soak sets it by hand).
    ///   - media: what a reload checks of the clips (`MediaFileCheck.kiosk`; tests inject a slow prober).
    public init(configPath: String, config: KioskConfiguration, display: DisplayBackend, inputs: [InputSource],
                log: EventLog, logger: Logger, exitAfter: Double? = nil,
                notifier: SystemdNotifier? = SystemdNotifier(), configProblems: [ConfigDiagnostic] = [],
                scheduleClock: WallClock = SystemWallClock(), media: MediaChecks = MediaFileCheck.kiosk) throws {
        self.configPath = configPath
        self.notifier = notifier
        screenWatch = ScreenWatch(frameDeadline: ScreenWatch.frameDeadline(watchdogInterval: notifier?.watchdogInterval ?? 5))
        self.display = display
        self.inputs = inputs
        self.logger = logger
        self.exitAfter = exitAfter
        // Signals first: the card workers and render threads started below inherit the mask.
        signals = try SignalWatcher()
        loop = try EventLoop()
        tick = try TickTimer()
        files = try MediaWatcher()
        start = monotonicNow()
        startWallTime = wallClock()
        renderScaleSetting = config.display.renderScale
        scaleGovernor = config.display.renderScale == .auto ? RenderScaleGovernor(refreshRate: display.refreshRate) : nil
        inputClock = InputClock(start: start)
        // The pixel shift's path goes on from where the wall clock says: restarts do not keep
        // the scene near the centre.
        session = CarouselSession(config: config, width: display.fullSize.width, height: display.fullSize.height,
                                  renderScale: display.renderScale, synchronousCards: false, pixelShiftPhase: startWallTime)
        actions = ActionRunner(settings: config.actions, logger: Logger(label: "kiosk.actions"))
        behavior = KioskBehavior(session: session, log: log, now: 0, wallClock: scheduleClock, media: media,
                                 performAction: { _, _, _, _ in [] })
        reloader = try ConfigReloader(path: configPath, media: media)
        serviceTimer = try TickTimer()
        services = ConfiguredServices(loop: loop, logger: logger)
        services.control.handle = { [unowned self] server in self.handleControl(server) }
        try services.adopt(config, atStart: true)
        behavior.performAction = { [unowned self] action, index, id, t in
            self.actions.perform(action, index: index, id: id, now: t)
        }
        behavior.onEventLine = { [unowned self] line in self.control?.broadcast(line) }
        behavior.onBlank = { [unowned self] in self.blankScreen() }
        behavior.onWake = { [unowned self] in self.wakeScreen() }
        reloader.apply = { [unowned self] loaded, reason in self.finishReload(loaded, reason: reason) }
        if !configProblems.isEmpty { showConfigProblems(configProblems) }
    }

    /// `[[schedule]]` boundaries are wall-clock times: a `CLOCK_REALTIME` timerfd with
    /// `TFD_TIMER_CANCEL_ON_SET` tells the loop when the clock is set (NTP's first step on a
    /// board without a real-time clock, an administrator), and the schedule is looked at again
    /// at once (its next boundary is recomputed from the new wall time).
    func watchClockChanges() throws {
        let timer = try TimerFD(realtime: true)
        try timer.watchClockChanges()
        clockChange = timer
        try loop.watch(timer.fd) { [unowned self] in
            guard timer.clockWasSet() else { return }
            try? timer.watchClockChanges()
            if self.behavior.schedule.isActive {
                self.logger.info("the wall clock was set; looking at the schedule again")
                self.behavior.updateSchedule(now: self.now)
            }
        }
    }

    /// How many times the loop woke up so far.
    public var loopWakeups: Int { loop.wakeups }

    /// Seconds since start: the engine's clock.
    var now: Double { monotonicNow() - start }

    /// Runs until SIGTERM/SIGINT (or `exitAfter`); restores the screen; returns the exit code.
    public func run() throws -> Int32 {
        actions.delegate = self
        try loop.watch(signals.fd) { [unowned self] in self.handleSignals() }
        try loop.watch(serviceTimer.fd) { [unowned self] in
            _ = self.serviceTimer.acknowledge()
            self.serviceDeadline = nil    // fired: beforeWait arms it for whatever is due next
            let t = self.now
            self.behavior.record(self.actions.update(now: t))
            self.behavior.updateIdle(now: t)
            if let due = self.behavior.schedule.nextDeadline, due <= t + 0.0005 { self.behavior.updateSchedule(now: t) }
            self.itemsFolderSettled(now: t)
            self.session.updatePixelShift(now: t)
            self.endNoticeIfDue(now: t)
        }
        try watchClockChanges()
        try loop.watch(tick.fd) { [unowned self] in self.tick.acknowledge(); self.step() }
        try loop.watch(session.cardEventFD) { [unowned self] in self.session.drainCards(now: self.now) }
        try loop.watch(files.fd) { [unowned self] in self.filesChanged() }
        try loop.watch(reloader.fd) { [unowned self] in
            self.reloader.finish()
            self.behavior.flushEvents()  // what the reload changed on the carousel, as after a command
        }
        watchFiles()
        for fd in display.pollDescriptors {
            try loop.watch(fd) { [unowned self] in
                if self.display.handleReadable(fd) { self.displayChanged() }
            }
        }
        try syncInputs()
        let stopTimer = try TickTimer()
        if let exitAfter {
            stopTimer.armOnce(after: exitAfter)
            try loop.watch(stopTimer.fd) { [unowned self] in self.loop.stop() }
        }
        if let latencyTrace { startLatencyTrace(latencyTrace) }
        try timedShots?.start(in: loop) { [unowned self] in self.now }
        if configProblems.isEmpty {
            logger.info("running: \(session.config.items.count) items, \(display.size.width)x\(display.size.height)")
        } else {
            logger.notice("showing the problems of \(configPath) on the screen (\(display.size.width)x\(display.size.height)); the carousel starts when the file is fixed")
        }
        if let n = notifier, let interval = n.watchdogInterval {
            logger.info("watchdog: pinging every \(interval) s while the screen is healthy (a due frame may wait \(screenWatch.frameDeadline) s)")
        }
        loop.run { [unowned self] in
            var timeout = self.beforeWait()
            if let ms = self.serviceWatchdog(now: monotonicNow()) { timeout = timeout < 0 ? ms : min(timeout, ms) }
            return timeout
        }
        try? notifier?.stopping()
        behavior.record(actions.killAllAndWait(now: now))
        services.stop()
        logger.notice("stopping after \(String(format: "%.1f", now)) s: \(framesPresented) frames presented, \(loop.wakeups) loop wake-ups, \(session.cardFacesDrawn) card faces drawn")
        display.close()
        latencyTrace?.close()
        inputs.forEach { $0.close() }
        return exitCode
    }

    func syncInputs() throws {
        let fds = inputs.flatMap(\.pollDescriptors)
        try loop.sync(fds, previous: &inputFDs) { fd in
            { [unowned self] in self.readInput(fd) }
        }
    }

    /// Delivers what `fd` has, each event at its kernel time in the loop's clock (`InputClock`).
    func readInput(_ fd: Int32) {
        let t = now
        for source in inputs where source.pollDescriptors.contains(fd) {
            for e in source.readTimed(fd: fd) {
                lastInputWallTime = wallClock()
                latency?.inputDelivered(kernelTime: e.time)
                behavior.input(e.event, now: inputClock.loopTime(ofKernelTime: e.time, now: t))
            }
        }
        try? syncInputs()
    }

    /// One engine tick.
    func step() {
        behavior.tick(now: now)
    }

    /// Runs before each sleep: keeps the tick timer armed exactly while something moves and
    /// draws a frame when the state changed and the display can take one. Returns the epoll
    /// timeout in milliseconds (-1: sleep until something happens).
    func beforeWait() -> Int32 {
        // After the frame: the metrics see this pass's facts, then the one-shot timer is armed
        // for whatever is due next (the metrics' next write among them).
        defer {
            updateMetrics()
            armServiceTimer()
        }
        // A control socket given up by the last pass's reload: its replies have been sent.
        services.control.closeRetired()
        if session.isMoving {
            if !tick.isArmed { tick.armRepeating(interval: 1 / max(1, session.config.carousel.tickHz)) }
        } else if tick.isArmed {
            tick.disarm()
        }
        // The display's own timers: the end of its frame-rate cap, a flip timeout, retries to take
        // DRM master back.
        if let w = display.nextWakeTime, monotonicNow() >= w, display.handleWake() { displayChanged() }
        if behavior.blanked { presentBlackIfDue() }
        renderScaleBetweenGestures()
        guard frameNeeded, display.canPresent else {
            return display.nextWakeTime.map { Int32(max(0, ($0 - monotonicNow()) * 1000).rounded(.up)) } ?? -1
        }
        // The display paces frames (its flips, or its own refresh cap): `canPresent` said yes.
        let t = monotonicNow()
        let damage = session.renderFrame(now: now)
        latency?.presenting(renderStart: t, renderEnd: monotonicNow())
        do {
            try display.present(session.frame, damage: damage)
            latency?.presented(sequence: display.frameSequence, submitted: monotonicNow())
            renderScaleFrame(duration: monotonicNow() - t)
            framesPresented += 1
            lastFrameWallTime = wallClock()
            presentTimes.append(t)
            if presentTimes.count > 120 { presentTimes.removeFirst(presentTimes.count - 120) }
            screenWatch.framePresented()
            if framesPresented == 1 {
                // Ready also while the problem card shows: the kiosk runs and says what is wrong.
                healthyStatus = statusLine
                try? notifier?.ready(status: healthyStatus)
            }
        } catch {
            displayErrors += 1
            logger.error("display: \(error)")
        }
        return -1
    }

    /// Arms the one-shot service timer for the next idle stage, action timeout, settled items
    /// folder, metrics write, schedule boundary or pixel shift step; re-armed only when that
    /// deadline moved (not on every wake-up).
    func armServiceTimer() {
        let due = [behavior.idle.nextDeadline, actions.nextDeadline, folderSettle.due, metrics?.nextDeadline,
                   behavior.schedule.nextDeadline, nextPixelShift, nextNoticeEnd].compactMap { $0 }.min()
        if due != serviceDeadline {
            serviceDeadline = due
            if let due { serviceTimer.armOnce(after: max(0.001, due - now)) } else { serviceTimer.disarm() }
        }
    }

    /// When the scene moves by its next pixel (`[display] pixel_shift`): the one-shot timer wakes
    /// the loop for it, and that frame is the only one between two steps. Not while the screen is
    /// blanked or a foreground program has it (the frame after those is drawn at the offset due).
    var nextPixelShift: Double? {
        guard !behavior.blanked, !actions.isForegroundActive else { return nil }
        return session.nextPixelShift(after: now)
    }

    /// A frame is owed to the screen: the scene changed or the display asked for one, and
    /// nothing legitimately keeps it off (the idle blank, a foreground program, no screen).
    var frameNeeded: Bool {
        !behavior.blanked && !actions.isForegroundActive && (session.needsFrame || display.wantsFrame) && display.size.width > 0
    }

    /// The watchdog's part of a loop pass, after `beforeWait`: pings systemd when a ping is due
    /// and the screen is healthy (`ScreenWatch`). When the health changes it says so once, in the
    /// journal (what, since when) and in `STATUS=`. Returns the epoll timeout it needs in
    /// milliseconds (the next ping, the next health check); nil without a watchdog.
    func serviceWatchdog(now t: Double) -> Int32? {
        guard let n = notifier, n.watchdogInterval != nil else { return nil }
        switch screenWatch.update(now: t, frameNeeded: frameNeeded, display: display.health) {
        case .unhealthy(let problem)?:
            displayErrors += 1
            let text = problem.describe(now: t)
            logger.error("\(text); not pinging the watchdog: systemd restarts the kiosk unless the display recovers")
            try? n.status("\(text); not pinging the watchdog")
        case .recovered(let problem)?:
            logger.notice("display healthy again after \(String(format: "%.1f", t - problem.since)) s; pinging the watchdog again")
            try? n.status(healthyStatus ?? "running")
        case nil:
            break
        }
        var wake: Double
        if screenWatch.isHealthy {
            do { try n.pingWatchdogIfDue(now: t) } catch { logger.warning("watchdog: \(error)") }
            wake = n.nextWatchdogDeadline ?? .infinity
            if let check = screenWatch.nextCheck { wake = min(wake, check) }
        } else {
            wake = t + 1  // look again each second, to ping as soon as the screen is back
        }
        guard wake.isFinite else { return nil }
        return Int32(max(0, ((wake - t) * 1000).rounded(.up)))
    }

    func handleSignals() {
        for s in signals.drain() {
            switch s {
            case SIGTERM, SIGINT:
                logger.notice("received \(s == SIGTERM ? "SIGTERM" : "SIGINT"); restoring the screen and exiting")
                loop.stop()
            case SIGHUP:
                requestReload(reason: "SIGHUP")
            case SIGCHLD:
                behavior.record(actions.reapChildren(now: now))
            default:
                break
            }
        }
    }


    func displayChanged() {
        let s = display.fullSize
        // The backend has said what happened in its own line (unplugged, new mode).
        logger.debug("display is now \(s.width)x\(s.height), drawn at \(display.size.width)x\(display.size.height)")
        if s.width > 0 && s.height > 0 {
            session.resize(width: s.width, height: s.height, renderScale: display.renderScale)
            // Touch positions are in screen pixels whatever the render scale.
            inputs.forEach { $0.screenChanged(width: s.width, height: s.height) }
        }
    }

}
