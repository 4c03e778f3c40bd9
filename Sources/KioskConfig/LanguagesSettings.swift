/// `[languages]`: the languages item texts are written in, and the one shown after start and at
/// idle home (docs/accessibility.md, Languages). Empty `available`: one language, no `language` key.
public struct LanguagesSettings: Equatable, Sendable {
    /// Language codes (`"en"`, `"de"`, `"pt-BR"`) in the order the `language` key cycles them.
    public var available: [String] = []
    /// The language shown at start and after idle home; nil when `available` is empty.
    public var defaultLanguage: String?
    /// The language this configuration is shown in (`KioskConfiguration.localized(to:)` sets
    /// it; the screen's language badge and the kiosk's own cards read it); nil: as loaded.
    public var shown: String?
    public init() {}
    public init(available: [String], defaultLanguage: String? = nil) {
        self.available = available
        self.defaultLanguage = defaultLanguage ?? available.first
    }

    /// The language shown: `shown`, else the default, else English (the kiosk's own strings
    /// are English when the config names no language).
    public var shownLanguage: String { shown ?? defaultLanguage ?? "en" }

    /// More than one language to show: the `language` key cycles them, the screen names the shown one.
    public var isMultilingual: Bool { available.count > 1 }

    /// The language after `language` in `available`, round to the first.
    public func next(after language: String) -> String {
        guard let i = available.firstIndex(of: language) else { return defaultLanguage ?? language }
        return available[(i + 1) % available.count]
    }
}

/// What a language code may look like: a primary subtag of 2 or 3 letters, then subtags of 2 to
/// 8 letters or digits (`en`, `de`, `pt-BR`, `zh-Hant`), as BCP 47 writes them.
public enum LanguageCode {
    public static func isValid(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count),
              first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return false }
        return parts.dropFirst().allSatisfy { p in
            (2...8).contains(p.count) && p.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
    }

    /// The rule as messages and the reference say it.
    public static let rule = "a language code such as \"en\", \"de\" or \"pt-BR\""
}
