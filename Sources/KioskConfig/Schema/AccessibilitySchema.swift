/// `[accessibility]`: large text and high contrast (docs/accessibility.md). Keys sorted.
enum AccessibilitySchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "accessibility", doc: "Ways the kiosk adapts to the person in front of it (docs/accessibility.md).",
                  prototype: KioskConfiguration(), keys: [
                    .bool("high_contrast", \.accessibility.highContrast,
                          "Start in high contrast: white text on opaque black plates, at least 7:1 against what is behind it. The `high_contrast` key toggles it.",
                          example: "true"),
                    .bool("large_text", \.accessibility.largeText,
                          "Start with large text: card text 1.5 times, the title overlay twice, notices 1.5 times their size. The `large_text` key toggles it.",
                          example: "true"),
                  ])
    }
}
