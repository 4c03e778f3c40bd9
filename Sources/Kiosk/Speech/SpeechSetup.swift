import Audio
import Speech

/// What speech needs besides the kiosk's logic: the synthesis, the sound output and where the
/// volume goes. A kiosk without an output keeps the logic (the `spoken` events, `state`'s
/// `speech`) and synthesizes nothing.
public struct SpeechSetup {
    /// Text to PCM: `SpeechWorker` in the kiosk, `ImmediateSpeech` on a virtual clock; nil: none.
    public var engine: SpeechEngine?
    /// Where clips are said (the kiosk's `AudioMixer`, `simulate --audio-out`'s); nil: nowhere.
    public var output: SpeechOutput?
    /// Where the volume keys' level goes; nil: kept and spoken only.
    public var volume: VolumeControl?
    /// The level the volume keys start from and return to at idle when `volume` is nil.
    public var standardVolume: Double

    public init(engine: SpeechEngine? = nil, output: SpeechOutput? = nil, volume: VolumeControl? = nil,
                standardVolume: Double = 0.8) {
        self.engine = engine
        self.output = output
        self.volume = volume
        self.standardVolume = standardVolume
    }

    /// The running kiosk's: espeak-ng on its own thread, made at the first utterance (nothing
    /// is loaded while speech stays off), and `output`. Nil engine when the thread's eventfd
    /// cannot be made (the process is out of descriptors): speech is then silent.
    public static func kiosk(output: SpeechOutput?, volume: VolumeControl? = nil) -> SpeechSetup {
        let engine = try? SpeechWorker(makeSynthesizer: { try ESpeakSynthesizer() })
        return SpeechSetup(engine: engine, output: output, volume: volume, standardVolume: volume?.volume ?? 0.8)
    }
}
