import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import Logging
import Raster

/// The program a kiosk boots into: one thread, one epoll over the display, the input devices,
/// the engine tick, signals and the config file. With a still carousel it sleeps in
/// `epoll_wait` with no timeout: no frames, no CPU.
public final class KioskApp {
    public let configPath: String
    public let session: CarouselSession
    private let display: DisplayBackend
    private var inputs: [InputSource]
    private let log: EventLog
    private let logger: Logger
    private let loop: EventLoop
    private let tick: TickTimer
    private let signals: SignalWatcher
    private let files: FileWatcher
    private var inputFDs: [Int32] = []
    private var lastPresent = -Double.infinity
    private var exitCode: Int32 = 0
    private let exitAfter: Double?
    private let start: Double
    /// Frames presented since start (for `state` and the idle measurement).
    public private(set) var framesPresented = 0
    private let notifier = SystemdNotifier()
    private let actions: ActionRunner
    private let idle: IdleController
    private var control: ControlServer?
    /// Armed once for the next idle stage or action timeout.
    private let serviceTimer: TickTimer
    private var blanked = false
    /// When recent frames were presented (monotonic seconds), for `state`'s fps.
    private var presentTimes: [Double] = []

    /// - Parameters:
    ///   - exitAfter: stop by itself after this many seconds (tests, measurements); nil: run until a signal.
    public init(configPath: String, config: KioskConfiguration, display: DisplayBackend, inputs: [InputSource],
                log: EventLog, logger: Logger, exitAfter: Double? = nil) throws {
        self.configPath = configPath
        self.display = display
        self.inputs = inputs
        self.log = log
        self.logger = logger
        self.exitAfter = exitAfter
        loop = try EventLoop()
        tick = try TickTimer()
        signals = try SignalWatcher()
        files = try FileWatcher()
        start = monotonicNow()
        session = CarouselSession(config: config, width: display.size.width, height: display.size.height)
        actions = ActionRunner(settings: config.actions, logger: Logger(label: "kiosk.actions"))
        idle = IdleController(policy: IdlePolicy(config.idle), now: 0)
        serviceTimer = try TickTimer()
        if let path = config.control.socket { control = try ControlServer(path: path) }
    }

    /// Seconds since start: the engine's clock.
    private var now: Double { monotonicNow() - start }

    /// Runs until SIGTERM/SIGINT (or `exitAfter`); restores the screen; returns the exit code.
    public func run() throws -> Int32 {
        actions.delegate = self
        try loop.watch(signals.fd) { [unowned self] in self.handleSignals() }
        try loop.watch(serviceTimer.fd) { [unowned self] in
            _ = self.serviceTimer.acknowledge()
            let t = self.now
            self.emit(self.actions.update(now: t))
            self.applyIdle(self.idle.update(now: t), now: t)
        }
        if let control {
            try loop.watch(control.fileDescriptor) { [unowned self] in self.handleControl() }
        }
        try loop.watch(tick.fd) { [unowned self] in self.tick.acknowledge(); self.step() }
        try loop.watch(files.fd) { [unowned self] in
            if self.files.drain().contains(FileWatcher.absolute(self.configPath)) { self.reload(reason: "the config file changed") }
        }
        files.watch(paths: [configPath])
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
        logger.info("running: \(session.config.items.count) items, \(display.size.width)x\(display.size.height)")
        loop.run { [unowned self] in
            var timeout = self.beforeWait()
            if let n = self.notifier {
                let t = monotonicNow()
                do { try n.pingWatchdogIfDue(now: t) } catch { self.logger.warning("watchdog: \(error)") }
                if let due = n.nextWatchdogDeadline {
                    let ms = Int32(max(0, ((due - t) * 1000).rounded(.up)))
                    timeout = timeout < 0 ? ms : min(timeout, ms)
                }
            }
            return timeout
        }
        try? notifier?.stopping()
        emit(actions.killAllAndWait(now: now))
        control?.close()
        logger.notice("stopping after \(String(format: "%.1f", now)) s: \(framesPresented) frames presented")
        display.close()
        inputs.forEach { $0.close() }
        return exitCode
    }

    private func syncInputs() throws {
        let fds = inputs.flatMap(\.pollDescriptors)
        try loop.sync(fds, previous: &inputFDs) { fd in
            { [unowned self] in self.readInput(fd) }
        }
    }

    private func readInput(_ fd: Int32) {
        let t = now
        for source in inputs where source.pollDescriptors.contains(fd) {
            for event in source.read(fd: fd) {
                let verdict = idle.handle(event, now: t)
                applyIdle(verdict.actions, now: t)
                if verdict.deliver { session.handle(event, now: t) }
            }
        }
        writeEvents(session.takeEvents())
        try? syncInputs()
    }

    /// One engine tick.
    private func step() {
        writeEvents(session.tick(now: now))
    }

    private func writeEvents(_ events: [TimedCarouselEvent]) {
        let items = session.config.items
        for e in events {
            log.write(e, items: items)
            if let line = log.lines.last { control?.broadcast(line) }
            if case .selected(let i) = e.event, items.indices.contains(i) {
                emit(actions.perform(items[i].action, index: i, id: items[i].id, now: e.time))
            }
        }
    }

    private func emit(_ events: [ActionEvent]) {
        for e in events {
            log.write(time: e.time, name: e.name, fields: e.fields)
            if let line = log.lines.last { control?.broadcast(line) }
        }
    }

    private func applyIdle(_ list: [IdleAction], now t: Double) {
        for a in list {
            log.write(time: t, name: a.eventName, fields: a.eventFields)
            if let line = log.lines.last { control?.broadcast(line) }
            switch a {
            case .attractBegan(let speed):
                if let speed { setAutoscroll(speed, now: t) }
            case .attractEnded:
                if session.engine.options.autoscroll != session.config.carousel.autoscroll {
                    setAutoscroll(session.config.carousel.autoscroll, now: t)
                    // Settle on the nearest item rather than stopping between two.
                    session.apply(.scrollTo(index: session.engine.currentIndex, duration: nil), now: t)
                }
            case .advance:
                let last = session.engine.itemCount - 1
                if session.engine.currentIndex >= last && !session.engine.wraps {
                    session.apply(.scrollTo(index: 0, duration: nil), now: t)
                } else {
                    session.apply(.step(1), now: t)
                }
            case .goHome(let index): session.apply(.scrollTo(index: index, duration: nil), now: t)
            case .blank:
                blanked = true
                presentBlack()
            case .wake:
                blanked = false
                session.resize(width: session.size.width, height: session.size.height)
            }
        }
        writeEvents(session.takeEvents())
    }

    /// Frames per second over the last second (0 when still).
    private var fps: Double {
        let t = monotonicNow()
        let recent = presentTimes.filter { t - $0 <= 1 }
        return Double(recent.count)
    }

    /// The engine's autoscroll speed (attract mode's, or the configured one afterwards).
    private func setAutoscroll(_ speed: Double, now t: Double) {
        var options = session.engine.options
        guard options.autoscroll != speed else { return }
        options.autoscroll = speed
        session.engine.update(options: options, itemCount: session.engine.itemCount, now: t)
    }

    /// A black frame where the display cannot switch itself off (DPMS belongs to the backend).
    private func presentBlack() {
        guard display.canPresent, display.size.width > 0 else { return }
        let black = Canvas(width: display.size.width, height: display.size.height)
        do { try display.present(black, damage: [black.bounds]) } catch { logger.error("display: \(error)") }
    }

    private func handleControl() {
        guard let control else { return }
        let t = now
        for request in control.handleEvents() {
            switch request.command {
            case .scrollTo(let index, let duration):
                guard session.config.items.indices.contains(index) else {
                    control.reply(to: request, .error("no item \(index): there are \(session.config.items.count)"))
                    continue
                }
                session.apply(.scrollTo(index: index, duration: duration), now: t)
                control.reply(to: request, .ok)
            case .scrollBy(let items, let duration):
                session.apply(.scrollBy(items: items, duration: duration), now: t)
                control.reply(to: request, .ok)
            case .select(let index):
                if let index {
                    guard session.config.items.indices.contains(index) else {
                        control.reply(to: request, .error("no item \(index)"))
                        continue
                    }
                    session.apply(.scrollTo(index: index, duration: 0), now: t)
                }
                session.apply(.select, now: t)
                control.reply(to: request, .ok)
            case .reload:
                reload(reason: "control socket")
                control.reply(to: request, .ok)
            case .state:
                control.reply(to: request, .state(ControlState(index: session.engine.currentIndex, offset: session.engine.scrollOffset,
                    itemCount: session.engine.itemCount, width: display.size.width, height: display.size.height,
                    fps: fps, foreground: actions.isForegroundActive, blanked: blanked)))
            case .screenshot(let path):
                do {
                    try ScreenshotWriter.write(session.scene.frame, to: path)
                    control.reply(to: request, .screenshot(path: path))
                } catch {
                    control.reply(to: request, .error("\(error)"))
                }
            }
        }
        writeEvents(session.takeEvents())
    }

    /// Runs before each sleep: keeps the tick timer armed exactly while something moves and
    /// draws a frame when the state changed and the display can take one. Returns the epoll
    /// timeout in milliseconds (-1: sleep until something happens).
    private func beforeWait() -> Int32 {
        let due = [idle.nextDeadline, actions.nextDeadline].compactMap { $0 }.min()
        if let due { serviceTimer.armOnce(after: max(0.001, due - now)) } else if serviceTimer.isArmed { serviceTimer.disarm() }
        if session.isMoving {
            if !tick.isArmed { tick.armRepeating(interval: 1 / max(1, session.config.carousel.tickHz)) }
        } else if tick.isArmed {
            tick.disarm()
        }
        guard !blanked, !actions.isForegroundActive, session.needsFrame, display.canPresent, display.size.width > 0 else { return -1 }
        let t = monotonicNow()
        let minInterval = 1 / max(1, display.refreshRate)
        let wait = lastPresent + minInterval - t
        if wait > 0 { return Int32((wait * 1000).rounded(.up)) }
        let damage = session.renderFrame()
        do {
            try display.present(session.scene.frame, damage: damage)
            lastPresent = t
            framesPresented += 1
            presentTimes.append(t)
            if presentTimes.count > 120 { presentTimes.removeFirst(presentTimes.count - 120) }
            if framesPresented == 1 { try? notifier?.ready(status: "showing \(session.config.items.count) items") }
        } catch {
            logger.error("display: \(error)")
        }
        return -1
    }

    private func handleSignals() {
        for s in signals.drain() {
            switch s {
            case SIGTERM, SIGINT:
                logger.notice("received \(s == SIGTERM ? "SIGTERM" : "SIGINT"); restoring the screen and exiting")
                loop.stop()
            case SIGHUP:
                reload(reason: "SIGHUP")
            case SIGCHLD:
                emit(actions.reapChildren(now: now))
            default:
                break
            }
        }
    }

    /// Parses and validates the config again; on any error keeps the running one.
    public func reload(reason: String) {
        do {
            let new = try ConfigLoader.load(path: configPath)
            session.reload(new, now: now)
            actions.update(settings: new.actions)
            applyIdle(idle.reconfigure(IdlePolicy(new.idle), now: now), now: now)
            if new.control.socket != control?.path {
                logger.warning("[control] socket changed: takes effect at the next start")
            }
            logger.notice("reloaded \(configPath) (\(reason)): \(new.items.count) items")
            log.write(time: now, name: "reloaded", fields: [("ok", "true")])
        } catch let e as ConfigErrors {
            for d in e.diagnostics { logger.error("\(d.description)") }
            logger.error("kept the running configuration: \(configPath) has \(e.diagnostics.count) problem(s)")
            log.write(time: now, name: "reloaded", fields: [("ok", "false"), ("problems", String(e.diagnostics.count))])
        } catch {
            logger.error("reload of \(configPath) failed: \(error); kept the running configuration")
        }
    }

    private func displayChanged() {
        let s = display.size
        logger.notice("display is now \(s.width)x\(s.height)")
        if s.width > 0 && s.height > 0 {
            session.resize(width: s.width, height: s.height)
            inputs.forEach { $0.screenChanged(width: s.width, height: s.height) }
        }
    }
}

extension KioskApp: ActionRunnerDelegate {
    public func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        applyIdle(idle.suspend(now: now), now: now)
        inputs.forEach { $0.suspend() }
        display.release()
    }

    public func actionRunnerDidEndForeground(_ runner: ActionRunner) {
        display.reacquire()
        inputs.forEach { $0.resume() }
        idle.resume(now: now)
        session.resize(width: session.size.width, height: session.size.height)
    }
}
