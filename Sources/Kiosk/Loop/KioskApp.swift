import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import Logging

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
    }

    /// Seconds since start: the engine's clock.
    private var now: Double { monotonicNow() - start }

    /// Runs until SIGTERM/SIGINT (or `exitAfter`); restores the screen; returns the exit code.
    public func run() throws -> Int32 {
        try loop.watch(signals.fd) { [unowned self] in self.handleSignals() }
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
        loop.run { [unowned self] in self.beforeWait() }
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
            for event in source.read(fd: fd) { session.handle(event, now: t) }
        }
        writeEvents(session.takeEvents())
        try? syncInputs()
    }

    /// One engine tick.
    private func step() {
        writeEvents(session.tick(now: now))
    }

    private func writeEvents(_ events: [TimedCarouselEvent]) {
        for e in events { log.write(e, items: session.config.items) }
    }

    /// Runs before each sleep: keeps the tick timer armed exactly while something moves and
    /// draws a frame when the state changed and the display can take one. Returns the epoll
    /// timeout in milliseconds (-1: sleep until something happens).
    private func beforeWait() -> Int32 {
        if session.isMoving {
            if !tick.isArmed { tick.armRepeating(interval: 1 / max(1, session.config.carousel.tickHz)) }
        } else if tick.isArmed {
            tick.disarm()
        }
        guard session.needsFrame, display.canPresent, display.size.width > 0 else { return -1 }
        let t = monotonicNow()
        let minInterval = 1 / max(1, display.refreshRate)
        let wait = lastPresent + minInterval - t
        if wait > 0 { return Int32((wait * 1000).rounded(.up)) }
        let damage = session.renderFrame()
        do {
            try display.present(session.scene.frame, damage: damage)
            lastPresent = t
            framesPresented += 1
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
        if s.width > 0 && s.height > 0 { session.resize(width: s.width, height: s.height) }
    }
}
