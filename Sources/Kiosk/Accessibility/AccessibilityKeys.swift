import CarouselCore
import KioskConfig

/// The kiosk keys of issue 30's "Seeing" and "Time and operation": `large_text` and
/// `high_contrast` toggle the session's look (`AccessibleLook`), `pause` stops and restarts
/// attract mode and the carousel's own autoscroll (`IdleController.setAttractPaused`).
/// `KioskBehavior` asks it first with every key that reaches the carousel; it owns no state
/// beyond what the session and the idle controller keep.
final class AccessibilityKeys {
    private unowned let session: CarouselSession
    private unowned let idle: IdleController

    init(session: CarouselSession, idle: IdleController) {
        self.session = session
        self.idle = idle
    }

    /// What pressing one of these keys does.
    enum Effect: Equatable {
        case look(AccessibleLook)
        case pause(Bool)
    }

    /// The effect of `event` now; nil for every other event (and for key releases).
    func effect(of event: InputEvent) -> Effect? {
        guard case .keyDown(let key) = event else { return nil }
        var look = session.look
        switch key {
        case .largeText: look.largeText.toggle()
        case .highContrast: look.highContrast.toggle()
        case .pause: return .pause(!idle.isAttractPaused)
        default: return nil
        }
        return .look(look)
    }

    /// The event line of a look change.
    static func lookFields(_ look: AccessibleLook) -> [(String, String)] {
        [("large_text", look.largeText ? "true" : "false"), ("high_contrast", look.highContrast ? "true" : "false")]
    }
}
