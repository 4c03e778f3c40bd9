/// Item texts written per language (`title = { en = "The Harbour", de = "Der Hafen" }`):
/// `ItemConfig.translations` keeps every language's text; the item's own `title` and `subtitle`
/// hold the default language's, so whatever does not ask for a language shows that.
extension ItemConfig {
    /// The item keys whose text may be written per language (the texts a card and the title
    /// overlay show).
    public static let translatableKeys = ["title", "subtitle", "description"]

    /// Sets the text of a translatable key (`translatableKeys`).
    mutating func setText(_ key: String, _ text: String) {
        switch key {
        case "title": title = text
        case "subtitle": subtitle = text
        case "description": description = text
        default: assertionFailure("'\(key)' is not a translatable item key")
        }
    }

    /// The item as shown in `language`: each text written per language in that language's
    /// text; a text without one (or written once for every language) stays the default language's.
    public func localized(to language: String) -> ItemConfig {
        var item = self
        for (key, texts) in translations {
            if let text = texts[language] { item.setText(key, text) }
        }
        return item
    }
}

extension KioskConfiguration {
    /// The configuration as shown in `language` (`languages.shown`): every item `localized(to:)`.
    public func localized(to language: String) -> KioskConfiguration {
        var config = self
        config.languages.shown = language
        if items.contains(where: { !$0.translations.isEmpty }) { config.items = items.map { $0.localized(to: language) } }
        return config
    }
}
