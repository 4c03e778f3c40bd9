/// `[accessibility]`: the theme variants a person can switch (issue 30, "Seeing"). Each is what
/// the kiosk starts with; a key toggles it while it runs (`large_text`, `high_contrast`).
public struct AccessibilitySettings: Equatable, Sendable {
    /// Text on cards and overlays larger (`AccessibleLook.cardTextScale` and the others), laid out again.
    public var largeText = false
    /// Every text on an opaque plate, white on black: at least 7:1 (`AccessibleLook`).
    public var highContrast = false
    public init() {}
}
