import Cards
import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import LinuxSystem
import Logging

/// The program a kiosk boots into: one thread, one `Reactor` (an epoll over every descriptor,
/// one timer for the earliest deadline), and the components that make the kiosk, each owning
/// its state (`KioskComponent`). With a still carousel it sleeps in `epoll_wait` with no
/// timeout: no frames, no CPU.
///
/// Every component is registered in `init`, in the order they prepare before each sleep and
/// fire when their deadlines come; a new feature is a new component added there.
public final class KioskApp {
    public let configPath: String
    /// What the components share: the scene, the display, the reactor, the configuration store.
    let context: KioskContext
    /// Where `run()` writes input-to-photon latency (`run --latency-trace`); nil: not measured,
    /// at no cost. Set before `run()`; closed when it returns.
    public var latencyTrace: LatencyTrace?
    /// `run --shot`: PNG files of the headless screen at given times; nil: none. Set before `run()`.
    public var timedShots: TimedShots?
    /// The start so far (`run`'s steps); logged with the first frame on screen
    /// (`StartupReportComponent`). Nil: not logged. Set before `run()`.
    public var startup: StartupTimeline?
    /// The first frame's title and badge being drawn on another thread (`FirstFrameAhead`): the
    /// first frame goes without them while they are drawn (`TextDrawnAheadComponent`). Nil: the
    /// session draws its text itself. Set before `run()`.
    public var textDrawnAhead: OverlaysDrawnAhead?

    /// - Parameters:
    ///   - openInputs: opens more input devices, called on a thread of its own from the loop's
    ///     first pass, once the first frame has gone to the display (`run`: neither the first
    ///     frame nor the loop waits for libinput's start); the devices join the loop when open.
    ///   - exitAfter: stop by itself after this many seconds (tests, measurements); nil: run until a signal.
    ///   - notifier: systemd's notify socket (default: from `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`).
    ///   - configProblems: why `configPath` could not be used (non-empty: `config` is the
    ///     defaults with what could be read of `[display]`); the screen shows them until the
    ///     file is fixed (`ConfigReload`).
    ///   - startingCheck: whether `config`'s fonts and clips were checked, or are checked by the
    ///     loop after the first frame (`run`).
    ///   - scheduleClock: the local time `[[schedule]]` reads (the reload soak sets it by hand).
    ///   - media: what a reload checks of the clips (`MediaFileCheck.kiosk`; tests inject a slow prober).
    ///   - speech: speech's synthesis (`SpeechSetup.kiosk`: espeak-ng on its own thread); the
    ///     default synthesizes nothing. Without an output or volume of its own, speech is said
    ///     into the kiosk's sound (`AudioComponent`'s mixer) and the volume keys set its level.
    ///   - clock: the monotonic clock of the loop (seconds); `wallClock`: Unix time (the facts'
    ///     times, the pixel shift's phase).
    public init(configPath: String, config: KioskConfiguration, display: DisplayBackend, inputs: [InputSource],
                openInputs: (() -> [InputSource])? = nil, log: EventLog, logger: Logger, exitAfter: Double? = nil,
                notifier: SystemdNotifier? = SystemdNotifier(), configProblems: [ConfigDiagnostic] = [],
                startingCheck: StartingConfigCheck = .done,
                scheduleClock: WallClock = SystemWallClock(), media: MediaChecks = MediaFileCheck.kiosk,
                speech: SpeechSetup = SpeechSetup(),
                clock: @escaping @Sendable () -> Double = MonotonicClock.now,
                wallClock: @escaping @Sendable () -> Double = WallClockTime.now) throws {
        self.configPath = configPath
        // Signals first: the card workers and render threads started below inherit the mask.
        let signals = try SignalHandlers()
        let reactor = try Reactor(clock: clock)
        // The pixel shift's path goes on from where the wall clock says: restarts do not keep
        // the scene near the centre.
        let session = CarouselSession(config: config, width: display.fullSize.width, height: display.fullSize.height,
                                      renderScale: display.renderScale, synchronousCards: false)
        let behavior = KioskBehavior(session: session, log: log, now: 0, pixelShiftPhase: wallClock(),
                                     wallClock: scheduleClock, media: media,
                                     configPath: configPath, configProblems: configProblems,
                                     performAction: { _, _, _, _ in [] })
        context = KioskContext(behavior: behavior, display: display, reactor: reactor,
                               logger: logger, wallClock: wallClock)
        // The components, in the order they prepare before each sleep (the frame after what
        // changes the scene, the metrics and the watchdog after the frame) and fire when their
        // deadlines come.
        let c = context
        c.register(signals)
        c.register(ActionsComponent(config: config, context: c, signals: signals))
        c.register(try ControlComponent(config: config, context: c))
        c.register(try EngineTick(context: c))
        c.register(VideoFrames(context: c))
        let audio = AudioComponent(settings: config.audio, context: c)
        c.register(audio)
        c.register(DisplayEvents(context: c))
        c.register(CECComponent(settings: config.display, context: c))
        c.register(ScreenBlanker(context: c))
        c.register(IdleTimer(behavior: behavior))
        c.register(ScheduleTimer(context: c))
        c.register(try WatchedFiles(context: c))
        c.register(PixelShiftTimer(context: c))
        c.register(NoticeTimeout(cards: behavior.sceneCards))
        c.register(USBStatusComponent(config: config, context: c))
        c.register(UpdateStatusComponent(context: c))
        c.register(RenderScaleComponent(setting: config.display.renderScale, context: c))
        var speech = speech
        if speech.output == nil { speech.output = audio.mixer }
        if speech.volume == nil { speech.volume = audio.mixer }
        c.register(SpeechComponent(settings: config.speech, setup: speech, context: c))
        c.register(FramePump(context: c))
        // After the frame pump: the start's check of fonts and clips begins once the first frame is drawn.
        c.register(try ConfigReload(context: c, signals: signals, startingCheck: startingCheck))
        // After the frame pump: devices opened later open once the first frame is drawn.
        c.register(InputDevicesComponent(inputs: inputs, openLater: openInputs, context: c))
        c.register(FrameTimesComponent(context: c))
        c.register(MetricsComponent(config: config, context: c))
        c.register(WatchdogComponent(notifier: notifier, context: c))
        if let exitAfter { c.register(StopTimer(after: exitAfter) { [unowned reactor] in reactor.stop() }) }
        signals.on(SIGTERM) { [unowned self] in self.stop(signal: "SIGTERM") }
        signals.on(SIGINT) { [unowned self] in self.stop(signal: "SIGINT") }
        behavior.onEventLine = { [unowned c] line in c.component(ControlComponent.self)?.server?.broadcast(line) }
    }

    /// What `run` starts with when the file at `path` does not validate: the defaults, with what
    /// can be read of the tables that choose the screen and the services — `[display]`, the
    /// `[control]` socket, the `[metrics]` file (a fleet sees the kiosk waiting:
    /// `config_load_errors`, the problem card's frame) and `[usb]` (a stick's content can bring
    /// the carousel up, docs/usb.md).
    public static func configurationWhileInvalid(path: String) -> KioskConfiguration {
        let readable = ConfigLoader.readableTables(["display", "control", "metrics", "usb"], path: path)
        var config = KioskConfiguration()
        config.display = readable.display
        config.control = readable.control
        config.metrics = readable.metrics
        config.usb = readable.usb
        return config
    }

    /// Registers the component that shows the first frame's text drawn on another thread, and
    /// holds the input devices' opening until the frame that shows it (under QEMU's TCG
    /// libinput's start took 0.2–0.5 s, which the text's frame would otherwise wait for).
    @discardableResult
    func registerTextDrawnAhead(_ text: OverlaysDrawnAhead) -> TextDrawnAheadComponent {
        let component = TextDrawnAheadComponent(text: text, context: context)
        context.register(component)
        self.component(InputDevicesComponent.self).holdOpening = { [unowned component] in component.isDrawing }
        return component
    }

    /// The carousel on the screen.
    public var session: CarouselSession { context.session }
    /// Idle stages, selection actions and the event stream (shared with `simulate`).
    public var behavior: KioskBehavior { context.behavior }
    /// The loop.
    public var reactor: Reactor { context.reactor }
    /// How many times the loop woke up so far.
    public var loopWakeups: Int { context.reactor.wakeups }
    /// Seconds since start: the engine's clock.
    public var now: Double { context.now }
    /// Frames presented since start (black frames of a blank are not counted).
    public var framesPresented: Int { component(FramePump.self).framesPresented }
    /// The problems of the config file while no valid one was ever read (the screen shows
    /// them); empty once the carousel runs.
    public var configProblems: [ConfigDiagnostic] { context.store.problems }
    /// The facts of `state` and the metrics file, with the resident memory of now.
    public var health: KioskHealth? { component(ControlComponent.self).health }
    /// Opens the input devices again for the configuration that replaced the start-up problem
    /// card (`[input]` was not known when they were opened); nil: keep the devices open.
    public var reopenInputs: ((KioskConfiguration) -> [InputSource])? {
        get { component(InputDevicesComponent.self).reopen }
        set { component(InputDevicesComponent.self).reopen = newValue }
    }

    /// The registered component of type `T` (every kiosk has one of each it registers).
    func component<T>(_ type: T.Type) -> T {
        guard let c = context.component(type) else { preconditionFailure("no \(type) registered") }
        return c
    }

    /// Parses and validates the config again on the calling thread and applies it; on any error
    /// keeps the running one (and returns false). For tests and tools that drive the kiosk
    /// without its loop; the loop itself reloads off its thread (`ConfigReload`).
    @discardableResult
    public func reload(reason: String) -> Bool { component(ConfigReload.self).reload(reason: reason) }

    /// Runs until SIGTERM/SIGINT (or `exitAfter`); restores the screen; returns the exit code (0).
    public func run() throws -> Int32 {
        let c = context
        if let latencyTrace { c.register(LatencyTraceComponent(trace: latencyTrace, context: c)) }
        if let timedShots { c.register(timedShots) }
        if let startup { c.register(StartupReportComponent(timeline: startup, context: c)) }
        if let textDrawnAhead { registerTextDrawnAhead(textDrawnAhead) }
        for component in c.components { try component.attach(to: c.reactor) }
        c.component(StartupReportComponent.self)?.mark("attach")
        let display = c.display
        if c.store.problems.isEmpty {
            c.logger.info("running: \(c.session.config.items.count) items, \(display.size.width)x\(display.size.height)")
        } else {
            c.logger.notice("showing the problems of \(configPath) on the screen (\(display.size.width)x\(display.size.height)); the carousel starts when the file is fixed")
        }
        c.reactor.run()
        // Last registered first: systemd hears STOPPING=1 before children are killed and
        // sockets closed.
        let t = now
        for component in c.components.reversed() { component.stop(now: t) }
        c.logger.notice("stopping after \(String(format: "%.1f", t)) s: \(framesPresented) frames presented, \(loopWakeups) loop wake-ups, \(c.session.cardFacesDrawn) card faces drawn")
        display.close()
        return 0
    }

    /// SIGTERM or SIGINT: the loop ends, the screen is restored.
    private func stop(signal name: String) {
        context.logger.notice("received \(name); restoring the screen and exiting")
        context.reactor.stop()
    }
}
