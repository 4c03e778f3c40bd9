/// `[languages]`, and the item texts written per language (`title = { en = "…", de = "…" }`).
enum LanguagesSchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "languages", doc: """
            The languages item texts are written in (docs/accessibility.md, Languages). With two or \
            more, any item text (`title`, `subtitle`) may be a table of languages, \
            `title = { en = "The Harbour", de = "Der Hafen" }`; a plain string is the same in every \
            language. The `language` key (`[input.keymap]`; `KEY_LANGUAGE` by default) and a tap \
            on the language badge in the top right corner show the next language; idle home shows \
            `default` again. The kiosk's own cards and notices are in the shown language too \
            (English where it has no text of its own for that language).
            """, prototype: KioskConfiguration(), keys: [
                KeySpec(name: "available", type: .strings, doc: "Language codes, in the order the `language` key shows them.",
                        defaultOf: { _ in "none (one language)" }, example: "[\"en\", \"de\"]",
                        apply: { c, v in c.languages.available = v.strings }),
                KeySpec(name: "default", type: .string(allowEmpty: false), doc: "The language shown at start and after idle home; one of `available`.",
                        defaultOf: { _ in "the first of `available`" }, example: "\"en\"",
                        apply: { c, v in c.languages.defaultLanguage = v.string }),
            ], finish: check)
    }

    /// Codes well formed and listed once; `default` one of them.
    static func check(_ config: inout KioskConfiguration) -> [TableProblem] {
        var problems: [TableProblem] = []
        var languages = config.languages
        for (n, code) in languages.available.enumerated() {
            if !LanguageCode.isValid(code) {
                problems.append(TableProblem(path: [.key("available"), .index(n)],
                                             "'available' element \(n + 1) (\(ValueFormat.quoted(code))) is not \(LanguageCode.rule)"))
            } else if languages.available.prefix(n).contains(code) {
                problems.append(TableProblem(path: [.key("available"), .index(n)], "'available' lists \(ValueFormat.quoted(code)) twice"))
            }
        }
        if let d = languages.defaultLanguage {
            if languages.available.isEmpty {
                problems.append(TableProblem("default", "'default' needs 'available' = [\"\(d)\", …], the languages to show"))
            } else if !languages.available.contains(d) {
                problems.append(TableProblem("default", "'default' is \(ValueFormat.quoted(d)), which is not in 'available' ("
                    + languages.available.map(ValueFormat.quoted).joined(separator: ", ") + ")"
                    + Suggestion.clause(for: d, in: languages.available, quote: { "\"\($0)\"" })))
            }
        } else {
            languages.defaultLanguage = languages.available.first
        }
        config.languages = languages
        return problems
    }

    /// An item text: a plain string, the same in every language, or a table of languages.
    static func text(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<ItemConfig, String>, _ doc: String, example: String) -> KeySpec<ItemConfig> {
        KeySpec(name: name, type: .text(allowEmpty: true), doc: doc + perLanguage, defaultOf: { ValueFormat.quoted($0[keyPath: kp()]) },
                example: example, apply: { item, v in apply(name, v, to: &item) { $0[keyPath: kp()] = $1 } })
    }

    static func text(_ name: String, _ kp: @autoclosure @escaping () -> WritableKeyPath<ItemConfig, String?>, _ doc: String, defaultText: String, example: String) -> KeySpec<ItemConfig> {
        KeySpec(name: name, type: .text(allowEmpty: false), doc: doc + perLanguage, defaultOf: { $0[keyPath: kp()].map(ValueFormat.quoted) ?? defaultText },
                example: example, apply: { item, v in apply(name, v, to: &item) { $0[keyPath: kp()] = $1 } })
    }

    static let perLanguage = " A string, or per language a table `{ en = \"…\", de = \"…\" }` (`[languages]`)."

    /// A plain string is the text; a table is kept in `translations` (the text is chosen by `resolveTexts`).
    private static func apply(_ key: String, _ value: ConfigValue, to item: inout ItemConfig, set: (inout ItemConfig, String) -> Void) {
        if case .texts(let texts) = value {
            item.translations[key] = texts
        } else {
            item.translations[key] = nil
            set(&item, value.string)
        }
    }

    /// For every text written per language on the `[[item]]` at `path`: the default language's
    /// text as the item's own (a text without it: the first of `available` it has), and a
    /// warning for each language of `available` it lacks (and what is shown instead) and for each
    /// language it has that `available` does not list. Without `[languages]` a table is an error.
    static func resolveTexts(_ item: inout ItemConfig, at path: ConfigPath, languages: LanguagesSettings, decoder: ConfigDecoder) {
        for key in ItemConfig.translatableKeys {
            guard let texts = item.translations[key] else { continue }
            let keyPath = path + [.key(key)]
            guard let defaultLanguage = languages.defaultLanguage else {
                decoder.report(at: keyPath, key: false,
                               "'\(key)' is written per language, but there is no [languages] table; add [languages] available = ["
                                   + texts.keys.sorted().map(ValueFormat.quoted).joined(separator: ", ") + "]")
                continue
            }
            for language in texts.keys.sorted() where !languages.available.contains(language) {
                decoder.warn(at: keyPath + [.key(language)], key: true,
                             "'\(key)' of \(ConfigDecoder.describe(path)) has a text for \(ValueFormat.quoted(language)), but [languages] available does not list \(ValueFormat.quoted(language)); it is never shown"
                                 + Suggestion.clause(for: language, in: languages.available, quote: { "\"\($0)\"" }))
            }
            let fallback = ([defaultLanguage] + languages.available).first { texts[$0] != nil } ?? texts.keys.sorted()[0]
            item.setText(key, texts[fallback]!)
            for language in languages.available where texts[language] == nil {
                decoder.warn(at: keyPath, key: true,
                             "'\(key)' of \(ConfigDecoder.describe(path)) has no text for \(ValueFormat.quoted(language)); in \(ValueFormat.quoted(language)) the \(ValueFormat.quoted(fallback)) text "
                                 + (fallback == defaultLanguage ? "(the default language's) " : "") + "is shown")
            }
        }
    }
}
