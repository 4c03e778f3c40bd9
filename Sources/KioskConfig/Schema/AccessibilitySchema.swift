/// `[accessibility]`: speech (and the theme variants), EN 301 549's closed functionality
/// (docs/accessibility.md).
enum AccessibilitySchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "accessibility", doc: """
            A kiosk everyone can use (docs/accessibility.md).
            """, prototype: KioskConfiguration(), keys: speechKeys)
    }

    /// Speech's keys (sorted; the theme variants' keys are a block of their own).
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
