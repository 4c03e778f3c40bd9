import Audio
import KioskConfig
import LinuxSystem
import Logging

/// The kiosk's sound (`[audio]`): the mixer the clips of `audio = true` items play into (and
/// speech, through `mixer` as its `SpeechOutput`), and the ALSA output thread that plays it.
/// Nothing of it runs on the loop: the loop swaps the mixer's channels; the output opens the
/// device only while something plays and reports a device it cannot use in one log line.
final class AudioComponent: KioskComponent {
    private unowned let context: KioskContext
    /// What plays: soundtracks and speech.
    let mixer: AudioMixer
    private var output: ALSAOutput
    private var settings: AudioSettings

    init(settings: AudioSettings, context: KioskContext) {
        self.context = context
        self.settings = settings
        mixer = AudioMixer(volume: settings.volume, clock: Self.sessionClock(context))
        output = Self.output(settings, mixer: mixer, context: context)
        context.behavior.video.sound = mixer
    }

    /// A kiosk let go without `stop` (tests) ends the output thread too.
    deinit { output.stop(timeout: 0) }

    /// The reactor's `now` as a clock other threads may read: the clips' clock.
    private static func sessionClock(_ context: KioskContext) -> @Sendable () -> Double {
        let clock = context.reactor.clock, origin = context.reactor.start
        return { clock() - origin }
    }

    /// The output thread on `settings.device`, on the session clock.
    private static func output(_ settings: AudioSettings, mixer: AudioMixer, context: KioskContext) -> ALSAOutput {
        ALSAOutput(device: settings.device, mixer: mixer, clock: sessionClock(context), logger: Logger(label: "kiosk.audio"))
    }

    func configAdopted(_ config: KioskConfiguration) {
        guard config.audio != settings else { return }
        mixer.volume = config.audio.volume
        if config.audio.device != settings.device {
            // The old thread ends (closing its device) before the new one may open another.
            output.stop()
            mixer.reopen()
            output = Self.output(config.audio, mixer: mixer, context: context)
        }
        settings = config.audio
    }

    func stop(now: Double) { output.stop() }
}
