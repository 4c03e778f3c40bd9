/// `[audio]`: the kiosk's sound output (docs/accessibility.md "Sound").
public struct AudioSettings: Equatable, Sendable {
    /// The ALSA PCM name.
    public var device = "default"
    /// The master level, 0…1.
    public var volume = 0.8
    public init() {}
}
