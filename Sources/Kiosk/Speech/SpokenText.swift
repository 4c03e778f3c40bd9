import Cards
import KioskConfig

/// What the kiosk says about what it shows (EN 301 549 5.1.3): plain sentences in the shown
/// language's words: the items' own texts as the config gives them in that language, the
/// kiosk's own words from `KioskStrings` (English where a language has none).
enum SpokenText {
    /// The focused item, said on a focus change: its title (or its id when it has none).
    static func title(_ item: ItemConfig) -> String {
        let t = item.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? item.id : t
    }

    /// Said when the carousel rests on `item`, after its title: the subtitle and the
    /// description (alt text); empty when it has neither.
    static func details(_ item: ItemConfig) -> String {
        sentences([item.subtitle, item.description])
    }

    /// What a selection did (5.1.3.1: the result of an action is spoken), in `language`.
    static func selected(_ item: ItemConfig, playingFullscreen: Bool, language: String) -> String {
        switch item.action {
        case .play:
            return KioskStrings.text(playingFullscreen ? .spokenPlaying : .spokenCouldNotPlay, language, title(item))
        case .exec: return KioskStrings.text(.spokenStarting, language, title(item))
        case .emit, .none: return KioskStrings.text(.spokenSelected, language, title(item))
        }
    }

    /// A notice or problem card, whole (5.1.3.15: every message on the screen is spoken).
    static func card(_ card: MessageCard) -> String {
        sentences([card.title] + card.lines + [card.footer])
    }

    /// The volume keys' level (5.1.3.11), in `language`.
    static func volume(_ level: Double, language: String) -> String {
        KioskStrings.text(.spokenVolume, language, String(Int((level * 100).rounded())))
    }

    static func speechOn(_ language: String) -> String { KioskStrings.text(.spokenSpeechOn, language) }
    static func speechOff(_ language: String) -> String { KioskStrings.text(.spokenSpeechOff, language) }

    /// The non-empty texts, each ended as a sentence, joined by spaces.
    static func sentences(_ parts: [String?]) -> String {
        parts.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .map { ".!?…:".contains($0.last!) ? $0 : $0 + "." }
            .joined(separator: " ")
    }
}
