/// `[accessibility] speech`: when the kiosk speaks what it shows (docs/accessibility.md,
/// EN 301 549 clause 5.1.3).
public struct SpeechSettings: Equatable, Sendable {
    /// When speech is on.
    public enum Mode: String, CaseIterable, Sendable {
        /// From the start; the `speech` key turns it off and on.
        case always
        /// While headphones are plugged in (the jack's switch); the `speech` key too.
        case headphones
        /// Off until the `speech` key turns it on.
        case key
        /// Never: the keys and the jack do nothing.
        case off
    }
    public var mode = Mode.headphones
    public init() {}
}
