import KioskConfig

/// Whether the kiosk speaks now: `[accessibility] speech`, the headphone jack and the `speech`
/// key (EN 301 549 5.1.2.2: speech can be turned on without sight).
struct SpeechSwitch: Equatable {
    var mode: SpeechSettings.Mode
    /// The jack's switch as last reported (false until a report).
    var headphonesPlugged = false
    /// What the `speech` key chose since the last reset; nil: the mode and the jack decide.
    var keyChoice: Bool?

    init(mode: SpeechSettings.Mode) { self.mode = mode }

    /// Speech is on.
    var isOn: Bool {
        switch mode {
        case .off: return false
        case .always: return keyChoice ?? true
        case .headphones: return keyChoice ?? headphonesPlugged
        case .key: return keyChoice ?? false
        }
    }

    /// The `speech` key: on becomes off and off on (nothing in mode `off`).
    mutating func toggle() {
        guard mode != .off else { return }
        keyChoice = !isOn
    }

    /// The jack's switch: in mode `headphones`, plugging in turns speech on and pulling out
    /// turns it off, whatever the key chose before.
    mutating func headphones(plugged: Bool) {
        headphonesPlugged = plugged
        if mode == .headphones { keyChoice = nil }
    }

    /// At idle the key's choice is forgotten: the next person finds the kiosk as configured.
    mutating func reset() { keyChoice = nil }
}
