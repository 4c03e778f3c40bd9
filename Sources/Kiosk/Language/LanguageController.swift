import CarouselCore
import Cards
import JSON
import KioskConfig

/// The language the kiosk shows (`[languages]`, docs/accessibility.md): the default at start
/// and after idle home, the next of `available` at each `language` key or tap on the language
/// badge. `KioskBehavior` holds it (the kiosk and `simulate` share it) and shows the session its
/// configuration in `current`; speech reads `current` for its voice.
public final class LanguageController {
    /// The configured languages (replaced on reload).
    public private(set) var settings: LanguagesSettings
    /// The language shown now, a code such as `"en"` or `"de"` (`"en"` when the configuration
    /// names no language: the kiosk's own strings are English then).
    public private(set) var current: String
    /// The badge as a control (a tap shows the next language).
    private var badgeTap = LanguageBadgeTap()

    public init(settings: LanguagesSettings) {
        self.settings = settings
        current = settings.shownLanguage
    }

    /// Shows the next language of `available`; false when there is only one.
    func cycle() -> Bool {
        guard settings.isMultilingual else { return false }
        current = settings.next(after: current)
        return true
    }

    /// Whether `event` is the language's: the `language` key, or a press on the badge of
    /// `session` (shown when there are two or more languages and nothing covers the carousel:
    /// `badgeShown`). Returns true when it was (the carousel must not get it); `changed` is set
    /// when the language changed.
    func take(_ event: InputEvent, session: CarouselSession, badgeShown: Bool, changed: inout Bool) -> Bool {
        if event == .keyDown(.language) {
            changed = cycle()
            return true
        }
        let frame = badgeShown && settings.isMultilingual ? Self.badgeFrame(session) : nil
        switch badgeTap.take(event, badge: frame) {
        case .notOnBadge: return false
        case .held: return true
        case .tapped:
            changed = cycle()
            return true
        }
    }

    /// The badge's box in screen pixels (input's): where it is drawn, divided by the render scale.
    static func badgeFrame(_ session: CarouselSession) -> (x: Double, y: Double, width: Double, height: Double) {
        let s = session.renderScale
        let drawn = session.size
        let f = LanguageBadge.frame(screenWidth: drawn.width, screenHeight: drawn.height,
                                    style: session.config.theme.scaled(by: s).titleOverlay)
        return (Double(f.x) / s, Double(f.y) / s, Double(f.width) / s, Double(f.height) / s)
    }

    /// Back to the default language (idle home, the blank); false when it is shown already.
    func returnToDefault() -> Bool {
        let wanted = settings.shownLanguage
        guard wanted != current else { return false }
        current = wanted
        return true
    }

    /// A reloaded configuration's languages: the shown one stays while it is still available,
    /// else the new default is shown. True when `current` changed.
    func reconfigure(_ new: LanguagesSettings) -> Bool {
        var new = new
        new.shown = nil
        settings = new
        if new.available.contains(current) { return false }
        return returnToDefault()
    }

    /// The `language` event's fields.
    var eventFields: [(String, String)] { [("language", JSONString.quoted(current))] }
}
