import Audio

/// Turns text into PCM in memory. An implementation need not be thread-safe: the kiosk uses one
/// from one thread only (`SpeechWorker`'s, or the loop's in `simulate`).
public protocol SpeechSynthesizer: AnyObject {
    /// The PCM of `utterance`, or nil when `shouldStop` (asked as samples come) said to stop.
    func synthesize(_ utterance: Utterance, shouldStop: @escaping () -> Bool) throws -> PCMClip?
}
