import Audio
import Cards
import CarouselCore
import Foundation
import JSON
import KioskConfig
import Speech
import XCTest
@testable import Kiosk

/// What the sound output was told, on the simulator's virtual clock.
final class RecordingSpeechOutput: SpeechOutput, VolumeControl {
    enum Call: Equatable {
        case say(String)
        case stop
    }
    var clock: () -> Double = { 0 }
    private(set) var calls: [(time: Double, call: Call)] = []
    private var endsAt = -1.0
    var volume = 0.8

    func say(_ clip: PCMClip) {
        calls.append((clock(), .say(FakeSynthesizer.text(of: clip))))
        endsAt = clock() + Double(clip.samples.count) / Double(clip.sampleRate)
    }
    func stopSpeech() {
        calls.append((clock(), .stop))
        endsAt = -1
    }
    var isSpeaking: Bool { clock() < endsAt }

    var said: [(time: Double, text: String)] {
        calls.compactMap { if case .say(let t) = $0.call { return ($0.time, t) } else { return nil } }
    }
    var stops: [Double] { calls.compactMap { $0.call == .stop ? $0.time : nil } }
}

/// A synthesizer whose clip says which text it is: 50 ms a character at 1 kHz, the text's
/// characters as the first samples.
final class FakeSynthesizer: SpeechSynthesizer {
    private(set) var languages: [String] = []
    func synthesize(_ utterance: Utterance, shouldStop: @escaping () -> Bool) throws -> PCMClip? {
        languages.append(utterance.language)
        var samples = utterance.text.unicodeScalars.map { Int16(truncatingIfNeeded: $0.value) }
        samples += Array(repeating: 0, count: max(0, utterance.text.count * 50 - samples.count)) + [-1]
        return PCMClip(sampleRate: 1000, channels: 1, samples: samples)
    }
    static func text(of clip: PCMClip) -> String {
        String(String.UnicodeScalarView(clip.samples.prefix { $0 > 0 }.compactMap { Unicode.Scalar(UInt32($0)) }))
    }
}

/// Speech on `simulate`'s virtual clock (issue 30): when it starts and stops, what it says, the
/// modes, the jack, the keys and the volume.
final class SpeechComponentTests: XCTestCase {
    private var folder: URL!
    private var output: RecordingSpeechOutput!
    private var log: EventLog!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        output = RecordingSpeechOutput()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func config(mode: String, extra: String = "") -> String {
        """
        [carousel]
        type = "linear"
        item_size = [120, 90]
        [accessibility]
        speech = "\(mode)"
        \(extra)
        [[item]]
        id = "harbour"
        title = "The Harbour"
        subtitle = "Morning"
        description = "Boats at a quay"
        [[item]]
        id = "ridge"
        title = "The Ridge"
        [[item]]
        id = "film"
        title = "A Film"
        action = { exec = ["/bin/true"] }
        [[item]]
        id = "last"
        title = "The Last"
        """
    }

    /// A simulator with the recording output; `script` as `(time, event)`.
    private func simulator(_ text: String, script: [(Double, InputEvent)] = []) throws -> Simulator {
        let path = folder.appendingPathComponent("config.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var plan = SimulationPlan(config: try ConfigLoader.load(path: path), width: 480, height: 320)
        plan.script = script.map { TimedInputEvent(time: $0.0, event: $0.1) }
        plan.speech = SpeechSetup(engine: ImmediateSpeech(synthesizer: FakeSynthesizer()), output: output, volume: output)
        log = try EventLog(path: nil)
        let sim = try Simulator(plan: plan, log: log)
        output.clock = { [unowned sim] in sim.nextStepTime }
        return sim
    }

    private func said(after t: Double) -> [(time: Double, text: String)] { output.said.filter { $0.time >= t - 1e-9 } }

    func testTheNewFocusIsSpokenWithin300Milliseconds() throws {
        let sim = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right)), (1.01, .keyUp(.right))])
        sim.advance(to: 3)
        let first = try XCTUnwrap(said(after: 1.0).first, "nothing said after the key at 1.0 s: \(output.said)")
        XCTAssertEqual(first.text, "The Ridge.")
        XCTAssertLessThanOrEqual(first.time - 1.0, 0.3, "the focus was said \(first.time - 1.0) s after the key")
        XCTAssertTrue(log.lines.contains { $0.contains(#""event":"spoken","text":"The Ridge.","language":"en""#) }, "no spoken event")
    }

    /// 5.1.3.14: speech is in the language shown; the `language` key says the focus again in
    /// the new one, with its voice.
    func testTheLanguageKeySaysTheFocusAgainInTheNewLanguage() throws {
        let text = config(mode: "always").replacingOccurrences(of: "title = \"The Harbour\"", with: "title = { en = \"The Harbour\", de = \"Der Hafen\" }")
            + "\n[languages]\navailable = [\"en\", \"de\"]\n"
        let sim = try simulator(text, script: [(1.0, .keyDown(.language)), (1.05, .keyUp(.language))])
        sim.advance(to: 2)
        let first = try XCTUnwrap(said(after: 1.0).first, "nothing said after the language key: \(output.said)")
        XCTAssertEqual(first.text, "Der Hafen.")
        XCTAssertLessThanOrEqual(first.time - 1.0, 0.3)
        XCTAssertTrue(log.lines.contains { $0.contains(#""event":"spoken","text":"Der Hafen.","language":"de""#) }, "\(log.lines)")
    }

    func testSpeechStopsWithin100MillisecondsOfTheNextInputAndTheNewFocusIsSpoken() throws {
        let sim = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right)), (1.4, .keyDown(.right))])
        sim.advance(to: 1.35)
        XCTAssertTrue(output.isSpeaking, "\"The Ridge.\" (0.5 s) should still be being said at 1.35 s")
        sim.advance(to: 3)
        let stop = try XCTUnwrap(output.stops.first { $0 >= 1.4 - 1e-9 }, "stopSpeech was not called after the key at 1.4 s")
        XCTAssertLessThanOrEqual(stop - 1.4, 0.1, "speech stopped \(stop - 1.4) s after the key")
        XCTAssertEqual(said(after: 1.4).first?.text, "A Film.", "the new focus was not said after the stop")
    }

    func testDetailsFollowTheTitleWhenTheCarouselRests() throws {
        let sim = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right)), (2.0, .keyDown(.left))])
        sim.advance(to: 6)
        let texts = said(after: 2.0).map(\.text)
        XCTAssertEqual(texts, ["The Harbour.", "Morning. Boats at a quay."], "\(output.said)")
        let times = said(after: 2.0).map(\.time)
        XCTAssertGreaterThanOrEqual(times[1] - times[0], 0.6 - 0.02, "the details cut the title (12 characters, 0.6 s) short")
    }

    func testRepeatSaysTheLastUtteranceAgain() throws {
        let sim = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right)), (3.0, .keyDown(.repeat))])
        sim.advance(to: 4)
        XCTAssertEqual(said(after: 3.0).map(\.text), ["The Ridge."], "\(output.said)")
        XCTAssertEqual(sim.session.position.index, 1, "repeat moved the carousel")
    }

    func testHeadphonesTurnSpeechOnAndOff() throws {
        let sim = try simulator(config(mode: "headphones"), script: [
            (0.5, .keyDown(.right)),
            (1.0, .headphones(plugged: true)), (2.0, .keyDown(.right)),
            (3.0, .headphones(plugged: false)), (4.0, .keyDown(.right)),
        ])
        sim.advance(to: 5)
        XCTAssertEqual(said(after: 0).first?.time ?? -1, 1.0, accuracy: 0.1, "speech began before the jack or not with it: \(output.said)")
        XCTAssertEqual(said(after: 0).map(\.text), ["Speech on. The Ridge.", "A Film."])
        XCTAssertTrue(output.stops.contains { abs($0 - 3.0) < 0.1 }, "pulling the headphones out did not stop speech")
        XCTAssertTrue(log.lines.contains { $0.contains(#""event":"speech_off","reason":"headphones_unplugged""#) })
    }

    func testKeyModeIsSilentUntilTheSpeechKeyAndTheKeyTurnsItOffAgain() throws {
        let sim = try simulator(config(mode: "key"), script: [
            (0.5, .keyDown(.right)), (1.0, .keyDown(.speech)), (2.0, .keyDown(.right)), (3.0, .keyDown(.speech)), (4.0, .keyDown(.right)),
        ])
        sim.advance(to: 5)
        XCTAssertEqual(said(after: 0).map(\.text), ["Speech on. The Ridge.", "A Film.", "Speech off."], "\(output.said)")
        XCTAssertEqual(sim.session.position.index, 3, "the speech key moved the carousel")
    }

    func testAlwaysSpeaksWithoutAKeyAndOffNeverSpeaks() throws {
        let always = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right))])
        always.advance(to: 2)
        XCTAssertFalse(output.said.isEmpty)
        output = RecordingSpeechOutput()
        let off = try simulator(config(mode: "off"), script: [
            (1.0, .keyDown(.speech)), (1.5, .headphones(plugged: true)), (2.0, .keyDown(.right)), (2.5, .keyDown(.repeat)),
        ])
        off.advance(to: 3)
        XCTAssertTrue(output.said.isEmpty, "speech = \"off\" said \(output.said)")
    }

    /// The kiosk's own words are said in the language shown too (KioskStrings).
    func testTheKiosksOwnWordsAreSaidInTheLanguageShown() throws {
        let sim = try simulator(config(mode: "always", extra: "[languages]\navailable = [\"de\", \"en\"]"), script: [
            (1.0, .keyDown(.volumeUp)), (1.5, .keyDown(.speech)),
        ])
        sim.advance(to: 2)
        XCTAssertEqual(output.said.map(\.text), ["Lautstärke 90 Prozent", "Sprachausgabe aus."])
        XCTAssertTrue(log.lines.contains { $0.contains(#""text":"Lautstärke 90 Prozent","language":"de""#) }, "\(log.lines)")
    }

    func testVolumeKeysChangeTheLevelSpokenAndItReturnsToTheDefaultAtIdle() throws {
        let sim = try simulator(config(mode: "always", extra: "[idle]\nhome_after = 5"), script: [
            (1.0, .keyDown(.volumeUp)), (1.5, .keyDown(.volumeDown)), (1.6, .keyDown(.volumeDown)),
        ])
        sim.advance(to: 2)
        XCTAssertEqual(output.volume, 0.7, accuracy: 1e-9)
        XCTAssertEqual(output.said.map(\.text), ["Volume 90 percent", "Volume 80 percent", "Volume 70 percent"])
        sim.advance(to: 7)
        XCTAssertEqual(output.volume, 0.8, accuracy: 1e-9, "the volume did not return to the default at home (1.6 + 5 s)")
        XCTAssertTrue(log.lines.contains { $0.contains(#""event":"volume","level":"0.8""#) || $0.contains(#""event":"volume","level":0.8"#) })
    }

    func testANoticeIsSpokenWhole() throws {
        let sim = try simulator(config(mode: "always"))
        sim.advance(to: 1)
        sim.behavior.sceneCards.showNotice(MessageCard(title: "New content", lines: ["12 items from the USB stick"]), until: 10)
        sim.advance(to: 1.2)
        XCTAssertEqual(said(after: 1.0).map(\.text), ["New content. 12 items from the USB stick."])
    }

    func testAnotherComponentsTextIsAnnouncedOnlyWhileSpeechIsOn() throws {
        let sim = try simulator(config(mode: "key"), script: [(1.0, .keyDown(.speech))])
        sim.advance(to: 0.5)
        sim.speech.announce("Do you need more time?", now: 0.5)
        sim.advance(to: 1.5)
        sim.speech.announce("Do you need more time?", now: 1.5)
        XCTAssertEqual(output.said.map(\.text), ["Speech on. The Harbour.", "Do you need more time?"])
    }

    func testASelectionSaysWhatItDid() throws {
        let sim = try simulator(config(mode: "always"), script: [(1.0, .keyDown(.right)), (1.1, .keyDown(.right)), (2.0, .keyDown(.enter))])
        sim.advance(to: 3)
        XCTAssertEqual(said(after: 2.0).first?.text, "Starting A Film")
    }

    func testNothingIsSynthesizedWithoutAnOutputAndExistingConfigsWriteNoSpeechEvents() throws {
        let path = folder.appendingPathComponent("plain.toml").path
        try "[[item]]\ntitle = \"A\"\n[[item]]\ntitle = \"B\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        var plan = SimulationPlan(config: try ConfigLoader.load(path: path), width: 320, height: 240)
        plan.script = [TimedInputEvent(time: 0.5, event: .keyDown(.right))]
        plan.until = 2
        let log = try EventLog(path: nil)
        try Simulator(plan: plan, log: log).run()
        XCTAssertFalse(log.lines.contains { $0.contains("spoken") || $0.contains("speech_") }, "the default (headphones, none plugged) spoke")
    }
}
