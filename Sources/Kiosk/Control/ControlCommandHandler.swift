/// What the kiosk itself must do for the control commands that reach outside the carousel:
/// reload the config file, write a screenshot, and the figures only the loop knows for
/// `state`. `KioskApp` is the real one; the soak (Tests/ReliabilityTests) supplies its own.
public protocol ControlEffects: AnyObject {
    /// Parses, validates and applies the config file again, or keeps the running one and
    /// returns false (the reason is logged, and its problems left in the behaviour's
    /// `lastReloadProblems`). The kiosk's loop does not come here for `reload`: it reads the
    /// file off the loop and answers once the outcome is known (`KioskApp.handleControl`).
    @discardableResult
    func reload(reason: String) -> Bool
    /// Writes the frame on the screen as a PNG file at `path`; throws why it could not.
    func writeScreenshot(to path: String) throws
    /// The screen's size in pixels.
    var screenSize: (width: Int, height: Int) { get }
    /// Frames shown per second, averaged by the loop (0 when still).
    var fps: Double { get }
    /// Frames presented since the start (0 where not counted).
    var framesPresented: Int { get }
    /// True while a foreground program owns the screen.
    var foregroundActive: Bool { get }
    /// True while the screen is blanked by the idle controller.
    var blanked: Bool { get }
    /// The facts the metrics file carries, for `state` (nil: not known, no extra fields).
    var health: KioskHealth? { get }
}

extension ControlEffects {
    public var framesPresented: Int { 0 }
    public var health: KioskHealth? { nil }
}

/// Carries out one checked control command on the carousel and answers it. One code path for
/// the kiosk's loop and for the soak: what a command does to the carousel is decided here, the
/// outside world is reached only through `ControlEffects`. A command that is refused (an index
/// past the items, a screenshot that cannot be written) changes nothing and gets `.error`.
public enum ControlCommandHandler {
    /// The reply to `command`, after applying it at `now` through `behavior`: the commands that
    /// move the carousel count as activity for the idle stages (`KioskBehavior.command`);
    /// `state`, `screenshot` and `reload` do not (a monitor polling `state` must not keep the
    /// kiosk from going idle).
    public static func handle(_ command: ControlCommand, behavior: KioskBehavior, now: Double,
                              effects: ControlEffects) -> ControlReply {
        let session = behavior.session
        let count = session.config.items.count
        switch command {
        case .scrollTo(let index, let duration):
            guard index < count else { return .error("no item \(index): there are \(count)") }
            behavior.command(.scrollTo(index: index, duration: duration), now: now)
            return .ok
        case .scrollBy(let items, let duration):
            behavior.command(.scrollBy(items: items, duration: duration), now: now)
            return .ok
        case .select(let index):
            if let index {
                guard index < count else { return .error("no item \(index): there are \(count)") }
                behavior.command(.scrollTo(index: index, duration: 0), now: now)
            }
            behavior.command(.select, now: now)
            return .ok
        case .reload:
            // The client hears whether the file was adopted and, if not, its problems (the
            // journal and the `reloaded` event say the same).
            return reloadReply(adopted: effects.reload(reason: "control socket"), behavior: behavior)
        case .state:
            let size = effects.screenSize
            let p = session.position
            return .state(ControlState(index: p.index, offset: p.offset,
                                       itemCount: p.itemCount, width: size.width, height: size.height,
                                       fps: effects.fps, foreground: effects.foregroundActive, blanked: effects.blanked,
                                       frames: effects.framesPresented, card: behavior.sceneCards.shownMessage?.title,
                                       language: behavior.language.current, health: effects.health))
        case .screenshot(let path):
            do {
                try effects.writeScreenshot(to: path)
                return .screenshot(path: path)
            } catch {
                return .error("\(error)")
            }
        }
    }

    /// The answer to `reload` once its outcome is known: adopted, or refused for the behaviour's
    /// `lastReloadProblems`.
    public static func reloadReply(adopted: Bool, behavior: KioskBehavior) -> ControlReply {
        .reload(adopted: adopted, problems: adopted ? [] : behavior.lastReloadProblems)
    }
}
