import Audio
import LinuxSystem
import Logging

/// Synthesis on the caller's thread, done when `request` returns: `simulate` (its virtual
/// clock stands still meanwhile, so the same input always gives the same speech) and tests.
public final class ImmediateSpeech: SpeechEngine {
    private let synthesizer: SpeechSynthesizer
    private let logger: Logger
    private var ready: [SpeechResult] = []

    public init(synthesizer: SpeechSynthesizer, logger: Logger = Logger(label: "kiosk.speech")) {
        self.synthesizer = synthesizer
        self.logger = logger
    }

    public var readyDescriptor: Int32? { nil }

    public func request(_ utterance: Utterance, id: Int) {
        let start = MonotonicClock.now()
        do {
            guard let clip = try synthesizer.synthesize(utterance, shouldStop: { false }) else { return }
            ready.append(SpeechResult(id: id, utterance: utterance, clip: clip, seconds: MonotonicClock.now() - start))
        } catch {
            logger.error("speech: \(error)")
        }
    }

    public func cancel() { ready = [] }

    public func takeResults() -> [SpeechResult] {
        defer { ready = [] }
        return ready
    }

    public func stop() {}
}
