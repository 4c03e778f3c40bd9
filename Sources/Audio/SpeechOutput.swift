/// Audio that speech hands to the kiosk's sound output (issue 30): 16-bit PCM in memory.
public struct PCMClip: Equatable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    public var samples: [Int16]
    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate; self.channels = channels; self.samples = samples
    }
}

/// Where speech goes: the kiosk's sound output (ALSA, or the WAV file of `simulate --audio-out`).
public protocol SpeechOutput: AnyObject {
    /// Says `clip` at once, replacing whatever was being said.
    func say(_ clip: PCMClip)
    /// Stops speech at once.
    func stopSpeech()
    /// Whether speech is playing.
    var isSpeaking: Bool { get }
}
