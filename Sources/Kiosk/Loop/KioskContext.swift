import CarouselCore
import Display
import Foundation
import KioskConfig
import LinuxSystem
import Logging

/// What the components of the running kiosk share: the scene (`session`, `behavior`), the
/// display, the reactor and the wall clock, the configuration store (the behaviour's) — and each other, to tell
/// every component what one of them saw (a configuration adopted, a frame presented, the screen
/// changed). Components are registered in `KioskApp.init`, in the order they prepare and fire.
final class KioskContext {
    let behavior: KioskBehavior
    /// The carousel on the screen (the behaviour's).
    var session: CarouselSession { behavior.session }
    let display: DisplayBackend
    let reactor: Reactor
    var store: ConfigStore { behavior.store }
    let logger: Logger
    /// Unix time in seconds (what a fleet compares with its own `time()`): injected, as the
    /// reactor's monotonic clock is.
    let wallClock: @Sendable () -> Double
    /// Unix time of the start.
    let startWallTime: Double
    /// The monotonic clock the display's times are on (`DisplayBackend.nextWakeTime`): the
    /// reactor's, unless the reactor's clock leaves time out (display-test's `HeldClock`).
    let displayClock: @Sendable () -> Double
    /// Every component, in registration order.
    private(set) var components: [KioskComponent] = []
    /// Presses that strike twice, kept from everyone (`[input] bounce_keys`).
    private var bounceKeys = BounceKeys()

    init(behavior: KioskBehavior, display: DisplayBackend, reactor: Reactor,
         logger: Logger, wallClock: @escaping @Sendable () -> Double,
         displayClock: (@Sendable () -> Double)? = nil) {
        self.behavior = behavior
        self.display = display
        self.reactor = reactor
        self.logger = logger
        self.wallClock = wallClock
        startWallTime = wallClock()
        self.displayClock = displayClock ?? reactor.clock
    }

    /// A time of the display's clock (`displayClock`) in the reactor's time.
    func reactorTime(ofDisplayTime t: Double) -> Double { now + (t - displayClock()) }

    /// Seconds since start: the engine's clock.
    var now: Double { reactor.now }

    /// Adds `component`: it prepares and fires after those added before it.
    func register(_ component: KioskComponent) {
        components.append(component)
        reactor.add(component)
    }

    /// The registered component of type `T` (the first), if any.
    func component<T>(_ type: T.Type) -> T? {
        for c in components { if let t = c as? T { return t } }
        return nil
    }

    /// Reloads the config file off the loop (`ConfigReload`); `answer` hears the outcome.
    func requestReload(reason: String, then answer: ConfigReloader.Answer? = nil) {
        component(ConfigReload.self)?.request(reason: reason, then: answer)
    }

    /// A frame is owed to the screen: the scene changed or the display asked for one, and
    /// nothing legitimately keeps it off (the idle blank, a foreground program, no screen).
    var frameNeeded: Bool {
        !framesHeld && (session.needsFrame || display.wantsFrame) && display.size.width > 0
    }

    /// A component keeps the carousel's frames off the screen.
    var framesHeld: Bool { components.contains { $0.holdsFrames } }

    /// The display's size changed: the scene is sized again, and every component told (with
    /// width and height 0 when the screen went away: the scene keeps its size then).
    func displayChanged() {
        let s = display.fullSize
        // The backend has said what happened in its own line (unplugged, new mode).
        logger.debug("display is now \(s.width)x\(s.height), drawn at \(display.size.width)x\(display.size.height)")
        guard s.width > 0 && s.height > 0 else {
            for c in components { c.displayChanged(width: 0, height: 0) }
            return
        }
        session.resize(width: s.width, height: s.height, renderScale: display.renderScale)
        for c in components { c.displayChanged(width: s.width, height: s.height) }
    }

    /// Tells every component about a configuration adopted.
    func adopted(_ config: KioskConfiguration) {
        for c in components { c.configAdopted(config) }
    }

    /// A person's input event: every component hears it, then the behaviour takes it — unless
    /// it is a key striking twice (`BounceKeys`).
    func input(_ event: InputEvent, now: Double) {
        guard bounceKeys.admit(event, now: now, delay: store.loaded.input.bounceKeys) else { return }
        for c in components { c.inputReceived(event, now: now) }
        behavior.input(event, now: now)
    }

    /// Tells every component about a frame presented.
    func presented(_ frame: PresentedFrame) {
        for c in components { c.framePresented(frame) }
    }

    /// The facts now (the resident memory is read by whoever writes them).
    func health() -> KioskHealth {
        var h = KioskHealth()
        h.startTime = startWallTime
        h.errors = ["config_reload": store.loadErrors, "video": behavior.videoFailures,
                    "action": behavior.actionFailures, "card": session.cardFailures, "display": 0]
        for c in components { c.report(into: &h) }
        return h
    }
}

/// The configuration: the one place it is held. `loaded` is the file as last adopted (every
/// item; the session shows the open schedule window's part of it, `KioskBehavior.shownConfig`),
/// with its generation, the reloads refused and the problems of the last one; while no valid file
/// was ever read, `problems` holds why (the screen shows them: `ConfigReload`). Every component
/// is told of each configuration adopted (`KioskComponent.configAdopted`).
public final class ConfigStore {
    /// The config file (as given on the command line; empty for `simulate`'s in-memory start).
    public let path: String
    /// The configuration as loaded: every item.
    public internal(set) var loaded: KioskConfiguration
    /// 1 for the configuration loaded at start, +1 at every reload applied.
    public internal(set) var generation = 1
    /// Reloads refused (the running configuration was kept).
    public internal(set) var loadErrors = 0
    /// The problems of the last refused reload; empty after a reload that was applied.
    public internal(set) var lastReloadProblems: [ConfigDiagnostic] = []
    /// The problems of the config file while no valid one was ever read; empty once the
    /// carousel runs.
    public internal(set) var problems: [ConfigDiagnostic]

    init(path: String, loaded: KioskConfiguration, problems: [ConfigDiagnostic] = []) {
        self.path = path
        self.loaded = loaded
        self.problems = problems
    }

    /// What `STATUS=` says while the screen is healthy.
    func statusLine(items: Int) -> String {
        problems.isEmpty
            ? "showing \(items) items"
            : "waiting for a valid configuration: \(problems.count) problem(s) in \(path)"
    }
}
