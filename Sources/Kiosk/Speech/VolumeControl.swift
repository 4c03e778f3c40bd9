/// Where the volume keys' level goes: the kiosk's sound output (`AudioMixer`, whose
/// `[audio] volume` is the level the kiosk starts with and returns to at idle).
public protocol VolumeControl: AnyObject {
    /// The level of everything the kiosk plays, 0…1.
    var volume: Double { get set }
}

/// The volume keys' level: steps of a tenth, 0…1, back to `standard` at idle (EN 301 549
/// 5.1.3.13: what a person changed returns to the default after use).
struct VolumeLevel: Equatable {
    /// The level the kiosk starts with and returns to.
    let standard: Double
    private(set) var level: Double
    static let step = 0.1

    init(standard: Double) {
        self.standard = min(1, max(0, standard))
        level = self.standard
    }

    /// One step up (`steps` 1) or down (-1); false when already at the end.
    mutating func change(by steps: Int) -> Bool {
        let new = min(1, max(0, ((level + Double(steps) * Self.step) * 10).rounded() / 10))
        guard new != level else { return false }
        level = new
        return true
    }

    /// Back to `standard`; false when it already was.
    mutating func reset() -> Bool {
        guard level != standard else { return false }
        level = standard
        return true
    }
}
