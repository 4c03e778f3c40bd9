/// `[accessibility]`: speech and the theme variants, EN 301 549's closed functionality
/// (docs/accessibility.md). Keys sorted.
enum AccessibilitySchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "accessibility", doc: """
            A kiosk everyone can use: ways it adapts to the person in front of it (docs/accessibility.md).
            """, prototype: KioskConfiguration(), keys: lookKeys + speechKeys)
    }

    /// The theme variants' keys (sorted).
    static var lookKeys: [KeySpec<KioskConfiguration>] {
        [
            .bool("high_contrast", \.accessibility.highContrast,
                  "Start in high contrast: white text on opaque black plates, at least 7:1 against what is behind it. The `high_contrast` key toggles it.",
                  example: "true"),
            .bool("large_text", \.accessibility.largeText,
                  "Start with large text: card text 1.5 times, the title overlay twice, notices 1.5 times their size. The `large_text` key toggles it.",
                  example: "true"),
        ]
    }

    /// Speech's keys (sorted).
    static var speechKeys: [KeySpec<KioskConfiguration>] {
        [
            .choice("speech", \.speech.mode, """
                When the kiosk speaks (espeak-ng): the focused item's title, then its subtitle and \
                `description` when the carousel rests, what a selection did, every notice and card. \
                `always`: from the start; `headphones`: while headphones are plugged in (the jack's \
                switch); `key`: once the `speech` key is pressed; `off`: never. The `speech` key \
                turns it on and off in every mode but `off`.
                """, example: .always),
        ]
    }
}
