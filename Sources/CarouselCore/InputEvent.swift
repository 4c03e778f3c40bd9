/// The keys the kiosk understands; a key map in the config binds real key codes to them.
public enum KeyName: String, CaseIterable, Sendable, Codable {
    case left, right, up, down, enter, escape, home
    case language  // languages (issue 30): shows the next of `[languages] available`
    // Speech (issue 30, docs/accessibility.md): turn speech on or off, say the last utterance
    // again, the volume up or down a step (spoken).
    case speech, `repeat`, volumeUp = "volume_up", volumeDown = "volume_down"
    // seeing (issue 30): the theme variants and pausing attract mode
    case largeText = "large_text", highContrast = "high_contrast", pause
}

extension KeyName {
    /// Speech's keys (`speech`, `repeat`, `volume_up`, `volume_down`): they change how the kiosk
    /// speaks, not what it shows, so a notice or a full-screen clip stays when one is pressed.
    public var isSpeechKey: Bool {
        switch self {
        case .speech, .repeat, .volumeUp, .volumeDown: return true
        default: return false
        }
    }
}

/// One input event in screen pixels, after calibration and display rotation.
/// This is the vocabulary of `simulate` input scripts, of `record`, and of every device source.
public enum InputEvent: Equatable, Sendable {
    case touchDown(slot: Int, x: Double, y: Double)
    case touchMotion(slot: Int, x: Double, y: Double)
    case touchUp(slot: Int)
    case touchCancel(slot: Int)
    /// The pointer moved to an absolute screen position.
    case pointerMotion(x: Double, y: Double)
    /// The primary pointer button was pressed or released.
    case pointerButton(pressed: Bool)
    /// A wheel turned by `delta` notches (positive: down or right).
    case pointerAxis(delta: Double)
    case keyDown(KeyName)
    case keyUp(KeyName)
    /// A rotary encoder turned by `delta` detents (positive: clockwise).
    case rotary(delta: Int)
    /// The headphone jack's switch (`SW_HEADPHONE_INSERT`): plugged in or pulled out (speech, issue 30).
    case headphones(plugged: Bool)
}

extension InputEvent {
    /// The speech key pressed or released (`KeyName.isSpeechKey`), nil for any other event.
    public var speechKey: KeyName? {
        switch self {
        case .keyDown(let key) where key.isSpeechKey, .keyUp(let key) where key.isSpeechKey: return key
        default: return nil
        }
    }
}

/// An input event at a moment of (virtual or monotonic) time, in seconds.
public struct TimedInputEvent: Equatable, Sendable {
    public var time: Double
    public var event: InputEvent
    public init(time: Double, event: InputEvent) { self.time = time; self.event = event }
}
