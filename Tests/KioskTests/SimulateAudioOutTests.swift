import Foundation
import JSON
import TestSupport
import XCTest

/// `simulate --audio-out FILE.wav`: what the kiosk would play, on the virtual clock. A video item
/// with `audio = true` is heard from its clip's start (the `video_started` event) to its stop,
/// silence otherwise; the same run gives the same bytes; the events do not change with it.
final class SimulateAudioOutTests: CommandTestCase {
    static let tickHz = 30.0
    static let rate = 48_000.0
    var clip = ""

    override var configText: String { "" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        clip = try TestClips.withTone(seconds: 3)
        config = try scratch.write("audio.toml", Self.config(clip: clip, audio: true))
    }

    static func config(clip: String, audio: Bool) -> String {
        """
        [carousel]
        tick_hz = \(Int(tickHz))
        [video]
        start_delay = 0.5
        [audio]
        volume = 1
        [[item]]
        id = "clip"
        video = "\(clip)"
        audio = \(audio)
        [[item]]
        id = "still"

        """
    }

    /// A key moves the carousel at 2 s: the clip (started after 0.5 s of rest) stops there.
    static let script = "{\"t\":2.0,\"type\":\"key_down\",\"key\":\"right\"}\n{\"t\":2.05,\"type\":\"key_up\",\"key\":\"right\"}\n"

    func simulate(config: String, wav: String?, events: String) throws {
        let input = try scratch.write("keys.jsonl", Self.script)
        let r = try ProductBinary.run(["simulate", "--config", config, "--size", "320x180", "--until", "3",
                                       "--input", input, "--events", events] + (wav.map { ["--audio-out", $0] } ?? []))
        XCTAssertEqual(r.status, 0, r.errors)
    }

    /// The times of the events named `name`.
    func times(_ name: String, in events: String) throws -> [Double] {
        try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard case .object(let fields)? = JSONValue.parse(String(line)),
                  case .string(name)? = fields["event"], case .number(let t)? = fields["t"] else { return nil }
            return t
        }
    }

    /// The WAV's samples (after its 44-byte header).
    func samples(_ path: String) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self), "RIFF")
        return stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    func testSoundPlaysFromTheClipsStartToItsStop() throws {
        let wav = folder + "/out.wav", events = folder + "/events.jsonl"
        try simulate(config: config, wav: wav, events: events)
        let started = try times("video_started", in: events), stopped = try times("video_stopped", in: events)
        XCTAssertEqual(started.count, 1, "one start: \(started)")
        XCTAssertEqual(stopped.count, 1, "one stop: \(stopped)")
        guard let start = started.first, let stop = stopped.first else { return }
        let s = try samples(wav)
        XCTAssertEqual(s.count, Int(3 * Self.rate) * 2, "0 to --until, stereo")
        guard let first = s.firstIndex(where: { $0 != 0 }), let last = s.lastIndex(where: { $0 != 0 }) else {
            return XCTFail("the WAV is silent")
        }
        let frame = 1 / Self.tickHz
        XCTAssertEqual(Double(first / 2) / Self.rate, start, accuracy: frame, "sound starts with the clip (\(start) s)")
        XCTAssertEqual(Double(last / 2) / Self.rate, stop, accuracy: frame, "sound stops with it (\(stop) s)")
        // Loud in between: RMS of the middle well above silence.
        let middle = s[(Int((start + 0.2) * Self.rate) * 2)..<(Int((stop - 0.2) * Self.rate) * 2)]
        let rms = (middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(middle.count)).squareRoot()
        XCTAssertGreaterThan(rms, 1000, "the tone is heard")
    }

    func testSameRunGivesTheSameBytesAndTheSameEvents() throws {
        let a = folder + "/a.wav", b = folder + "/b.wav"
        try simulate(config: config, wav: a, events: folder + "/a.jsonl")
        try simulate(config: config, wav: b, events: folder + "/b.jsonl")
        try simulate(config: config, wav: nil, events: folder + "/none.jsonl")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
        let events = try ["a", "b", "none"].map { try String(contentsOfFile: folder + "/\($0).jsonl", encoding: .utf8) }
        XCTAssertEqual(events[0], events[1])
        XCTAssertEqual(events[0], events[2], "--audio-out does not change what simulate does")
    }

    /// Full screen: `play_centred = false` (the card plays nothing), enter at 1 s plays the clip on
    /// the whole screen with its sound, escape at 2 s ends both.
    func testFullScreenClipIsHeardUntilItIsEnded() throws {
        let text = Self.config(clip: clip, audio: true)
            .replacingOccurrences(of: "start_delay = 0.5", with: "play_centred = false")
            .replacingOccurrences(of: "audio = true", with: "audio = true\naction = { play = \"fullscreen\" }")
        let fullscreen = try scratch.write("fullscreen.toml", text)
        let keys = try scratch.write("fullscreen-keys.jsonl", """
            {"t":1.0,"type":"key_down","key":"enter"}
            {"t":1.05,"type":"key_up","key":"enter"}
            {"t":2.0,"type":"key_down","key":"escape"}
            {"t":2.05,"type":"key_up","key":"escape"}

            """)
        let wav = folder + "/fullscreen.wav", events = folder + "/fullscreen.jsonl"
        let r = try ProductBinary.run(["simulate", "--config", fullscreen, "--size", "320x180", "--until", "3",
                                       "--input", keys, "--events", events, "--audio-out", wav])
        XCTAssertEqual(r.status, 0, r.errors)
        let started = try times("video_fullscreen_started", in: events), ended = try times("video_fullscreen_ended", in: events)
        XCTAssertEqual(started.count, 1, "\(started)")
        XCTAssertEqual(ended.count, 1, "\(ended)")
        XCTAssertEqual(try times("video_started", in: events), [], "the card plays nothing")
        guard let start = started.first, let end = ended.first else { return }
        let s = try samples(wav)
        guard let first = s.firstIndex(where: { $0 != 0 }), let last = s.lastIndex(where: { $0 != 0 }) else {
            return XCTFail("the WAV is silent")
        }
        let frame = 1 / Self.tickHz
        XCTAssertEqual(Double(first / 2) / Self.rate, start, accuracy: frame, "sound starts with the full-screen clip (\(start) s)")
        XCTAssertEqual(Double(last / 2) / Self.rate, end, accuracy: frame, "sound ends with it (\(end) s)")
    }

    func testMutedClipIsSilent() throws {
        let muted = try scratch.write("muted.toml", Self.config(clip: clip, audio: false))
        let wav = folder + "/muted.wav"
        try simulate(config: muted, wav: wav, events: folder + "/muted.jsonl")
        XCTAssertEqual(Set(try samples(wav)), [0])
    }
}
