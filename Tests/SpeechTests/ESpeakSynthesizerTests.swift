import Audio
import LinuxSystem
import XCTest
@testable import Speech

/// The real espeak-ng (espeak-ng-data installed): speech is sound, in the language asked for.
final class ESpeakSynthesizerTests: XCTestCase {
    /// espeak-ng is one per process: the tests share one synthesizer.
    static let shared: ESpeakSynthesizer? = try? ESpeakSynthesizer()

    private func synthesizer() throws -> ESpeakSynthesizer {
        guard let s = Self.shared else { throw XCTSkip("espeak-ng could not start (is espeak-ng-data installed?)") }
        return s
    }

    /// Root mean square of the samples, in 16-bit units.
    private func loudness(_ clip: PCMClip) -> Double {
        guard !clip.samples.isEmpty else { return 0 }
        let sum = clip.samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(clip.samples.count)).squareRoot()
    }

    func testHelloIsNonSilentInEnglishAndGerman() throws {
        let s = try synthesizer()
        XCTAssertTrue(s.languages.contains("en"), "espeak-ng lists no English voice: \(s.languages.sorted())")
        XCTAssertTrue(s.languages.contains("de"), "espeak-ng lists no German voice")
        for language in ["en", "de"] {
            let clip = try XCTUnwrap(try s.synthesize(Utterance(text: "Hello", language: language), shouldStop: { false }),
                                     "no clip for \(language)")
            XCTAssertEqual(clip.channels, 1)
            XCTAssertEqual(clip.sampleRate, s.sampleRate)
            let seconds = Double(clip.samples.count) / Double(clip.sampleRate)
            XCTAssertGreaterThan(seconds, 0.2, "\(language): \"Hello\" lasts \(seconds) s")
            XCTAssertLessThan(seconds, 3, "\(language): \"Hello\" lasts \(seconds) s")
            XCTAssertGreaterThan(loudness(clip), 300, "\(language): \"Hello\" is silent (RMS \(loudness(clip)))")
        }
    }

    func testTheVoiceFollowsTheLanguage() throws {
        let s = try synthesizer()
        let en = try XCTUnwrap(try s.synthesize(Utterance(text: "Der Hafen", language: "en"), shouldStop: { false }))
        let de = try XCTUnwrap(try s.synthesize(Utterance(text: "Der Hafen", language: "de"), shouldStop: { false }))
        XCTAssertNotEqual(en.samples, de.samples, "the German voice said the same as the English one")
        XCTAssertEqual(s.voiceLanguage(for: "de-CH"), "de")
        XCTAssertEqual(s.voiceLanguage(for: "DE"), "de")
        XCTAssertEqual(s.voiceLanguage(for: "xx-nowhere"), "en", "a language without a voice is spoken in the default one")
    }

    func testShouldStopEndsSynthesisEarly() throws {
        let s = try synthesizer()
        var asked = 0
        let clip = try s.synthesize(Utterance(text: "A long sentence that takes a few seconds to say, with many words in it.", language: "en"),
                                    shouldStop: { asked += 1; return true })
        XCTAssertNil(clip, "a stopped synthesis gives no clip")
        XCTAssertLessThanOrEqual(asked, 2, "synthesis went on after the first block of samples was refused")
    }

    /// The worker thread hands each clip back through its eventfd; a newer request replaces an older one.
    func testWorkerHandsClipsBackThroughItsDescriptor() throws {
        _ = try synthesizer()
        let worker = try SpeechWorker(makeSynthesizer: { Self.shared! })
        defer { worker.stop() }
        let fd = try XCTUnwrap(worker.readyDescriptor)
        worker.request(Utterance(text: "One", language: "en"), id: 1)
        worker.request(Utterance(text: "Two", language: "en"), id: 2)
        var results: [SpeechResult] = []
        let deadline = MonotonicClock.now() + 30
        while !results.contains(where: { $0.id == 2 }) && MonotonicClock.now() < deadline {
            _ = waitReadable(fd, timeout: 1)
            results += worker.takeResults()
        }
        XCTAssertEqual(results.last?.id, 2, "waiting for request 2's clip: got \(results.map(\.id)) in 30 s")
        XCTAssertFalse(results.last?.clip.samples.isEmpty ?? true)
        worker.cancel()
        XCTAssertEqual(worker.takeResults(), [])
    }
}
