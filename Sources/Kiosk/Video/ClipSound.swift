import Audio
import KioskConfig
import Logging
import Video

/// A clip's sound is a `SoundSource` of the mixer: it renders against the same session clock the
/// clip's frames are picked with.
extension Soundtrack: SoundSource {}

extension Soundtrack {
    /// The sound of `item`'s clip at `path`, started in `mixer` as if from session time `now` on —
    /// the time the clip's frames count from; nil when the item is muted (`audio` off) or there is
    /// no mixer.
    static func start(item: ItemConfig, path: String, at now: Double, mixer: AudioMixer?, synchronous: Bool,
                      logger: Logger) -> Soundtrack? {
        guard item.audio, let mixer else { return nil }
        let soundtrack = Soundtrack(path: path, start: now, sampleRate: AudioFormat.sampleRate, loop: item.loop,
                                    synchronous: synchronous, clock: mixer.clock, logger: logger)
        mixer.playSoundtrack(soundtrack)
        return soundtrack
    }

    /// Stops the sound and takes it out of `mixer`.
    func stop(in mixer: AudioMixer?) {
        stop()
        mixer?.stopSoundtrack(self)
    }
}
