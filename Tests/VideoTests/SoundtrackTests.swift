import Foundation
import LinuxSystem
import Logging
import TestSupport
@testable import Video
import XCTest

/// A clip's sound: decoded to 48 kHz stereo with times on the video's clock, and played against
/// the session clock (`Soundtrack`).
final class SoundtrackTests: XCTestCase {
    static let rate = 48_000

    /// Root mean square of interleaved samples, in full-scale units.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The tone clip decodes to about its length of 48 kHz stereo, from time ~0, both channels
    /// alike (mono on both), loud.
    func testDecoderGivesTheClipsSoundOnItsClock() throws {
        let decoder = try AudioDecoder(path: try TestClips.withTone(seconds: 2), sampleRate: Self.rate)
        XCTAssertEqual(decoder.decoderName, "aac")
        var frames = 0
        var first: Double?
        var peak: Int16 = 0
        while let chunk = try decoder.nextChunk() {
            if first == nil { first = chunk.time }
            frames += chunk.frames
            for i in stride(from: 0, to: chunk.samples.count, by: 2) {
                XCTAssertEqual(chunk.samples[i], chunk.samples[i + 1])
                peak = max(peak, chunk.samples[i])
            }
        }
        XCTAssertEqual(first ?? -1, 0, accuracy: 0.03)
        XCTAssertEqual(Double(frames) / Double(Self.rate), 2, accuracy: 0.05)
        XCTAssertGreaterThan(peak, 3000, "lavfi's sine is at 1/8 full scale")
        try decoder.rewind()
        XCTAssertNotNil(try decoder.nextChunk(), "rewinds for a loop")
    }

    /// A clip without sound: `.noAudioStream`, and its soundtrack is silent with one warning.
    func testClipWithoutSoundIsSilent() throws {
        let path = try TestClips.moving(seconds: 1)
        XCTAssertThrowsError(try AudioDecoder(path: path, sampleRate: Self.rate)) { error in
            XCTAssertEqual((error as? VideoError)?.kind, .noAudioStream)
        }
        let capture = LogCapture()
        let soundtrack = Soundtrack(path: path, start: 0, sampleRate: Self.rate, loop: false, synchronous: true,
                                    logger: capture.logger)
        var buffer = [Float](repeating: 0, count: 4800 * 2)
        buffer.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: 4800, at: 0.5) }
        XCTAssertEqual(Set(buffer), [0])
        XCTAssertTrue(soundtrack.isFinished)
        XCTAssertEqual(capture.messages(.warning).count, 1, capture.lines.description)
    }

    /// Rendered on the session clock: silence before the clip's start, the tone from it on,
    /// silence after its end; the same calls give the same samples.
    func testSoundFollowsTheSessionClock() throws {
        let path = try TestClips.withTone(seconds: 1)
        func render(_ soundtrack: Soundtrack, from: Double, to: Double) -> [Float] {
            let frames = Int((to - from) * Double(Self.rate))
            var out = [Float](repeating: 0, count: frames * 2)
            var done = 0
            while done < frames {
                let n = min(1024, frames - done)
                out.withUnsafeMutableBufferPointer { all in
                    let slice = UnsafeMutableBufferPointer(rebasing: all[(done * 2)..<((done + n) * 2)])
                    soundtrack.render(into: slice, frames: n, at: from + Double(done) / Double(Self.rate))
                }
                done += n
            }
            return out
        }
        let first = render(Soundtrack(path: path, start: 2, sampleRate: Self.rate, loop: false, synchronous: true,
                                      logger: Logger(label: "test")), from: 1.5, to: 3.5)
        let again = render(Soundtrack(path: path, start: 2, sampleRate: Self.rate, loop: false, synchronous: true,
                                      logger: Logger(label: "test")), from: 1.5, to: 3.5)
        XCTAssertEqual(first, again, "deterministic")
        let at = { (t: Double) in Int((t - 1.5) * Double(Self.rate)) * 2 }
        XCTAssertEqual(Self.rms(first[at(1.5)..<at(1.99)]), 0, "before the start")
        XCTAssertGreaterThan(Self.rms(first[at(2.05)..<at(2.9)]), 0.05, "the tone while it plays")
        XCTAssertEqual(Self.rms(first[at(3.1)..<at(3.5)]), 0, "after its end")
        let onset = (first.firstIndex { $0 != 0 } ?? 0) / 2
        XCTAssertEqual(Double(onset) / Double(Self.rate) + 1.5, 2, accuracy: 0.03, "starts at the clip's start")
    }

    /// A jump of the clock (a late output, drift beyond the tolerance) moves the sound to the
    /// clock: asked for 1.5 s straight after 0.1 s, a 1-second clip is over (silence), not played
    /// on from 0.12 s; a looping one plays its second pass.
    func testSoundSkipsToTheClockWhenItDrifts() throws {
        let path = try TestClips.withTone(seconds: 1)
        func jump(loop: Bool) -> [Float] {
            let soundtrack = Soundtrack(path: path, start: 0, sampleRate: Self.rate, loop: loop, synchronous: true,
                                        logger: Logger(label: "test"))
            var x = [Float](repeating: 0, count: 2048)
            x.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: 1024, at: 0.1) }
            XCTAssertGreaterThan(Self.rms(x[...]), 0.05)
            x = [Float](repeating: 0, count: 2048)
            x.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: 1024, at: 1.5) }
            return x
        }
        XCTAssertEqual(Self.rms(jump(loop: false)[...]), 0, "past the end: silence")
        XCTAssertGreaterThan(Self.rms(jump(loop: true)[...]), 0.05, "the loop's second pass")
    }

    /// On its thread with the session clock: while nothing asks for sound (an output still
    /// opening its device), the decoding keeps up with the clock and drops what it passed, so
    /// the first period asked for late has the sound of its moment, and at most about
    /// `readAhead` seconds are held.
    func testThreadFollowsTheClockBeforeTheOutputAsks() throws {
        let path = try TestClips.withTone(seconds: 4)
        let origin = MonotonicClock.now()
        let clock: @Sendable () -> Double = { MonotonicClock.now() - origin }
        let soundtrack = Soundtrack(path: path, start: 0, sampleRate: Self.rate, loop: false, synchronous: false,
                                    clock: clock, logger: Logger(label: "test"))
        defer { soundtrack.stop() }
        // Wait (as long as a busy machine needs) until 1.5 s of clip time have passed and the
        // thread has decoded past the clock.
        let deadline = MonotonicClock.now() + 30
        while !(clock() > 1.5 && soundtrack.decodedSpan.to > clock()) {
            if MonotonicClock.now() > deadline { return XCTFail("the thread never caught up with the clock: \(soundtrack.decodedSpan) at \(clock())") }
            usleep(20_000)
        }
        let span = soundtrack.decodedSpan, now = clock()
        XCTAssertGreaterThan(span.from, 0.5, "what the clock passed was dropped: \(span) at \(now)")
        XCTAssertLessThan(span.to - span.from, Soundtrack.readAhead + 0.5, "bounded: \(span) at \(now)")
        var out = [Float](repeating: 0, count: 2048)
        out.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: 1024, at: clock()) }
        XCTAssertGreaterThan(Self.rms(out[...]), 0.05, "the first period asked for late is heard")
    }

    /// A start that comes late (the decoder's own open on a slow machine, simulated by a clock
    /// already 3 s into the clip): the thread seeks to the clock instead of decoding (and
    /// dropping) the 3 s before it, and the sound of the moment is heard at once — before, a
    /// decoder not much faster than the clock caught up only after the clip had ended.
    func testALateStartSeeksToTheClockInsteadOfDecodingItsWayThere() throws {
        let path = try TestClips.withTone(seconds: 6)
        let origin = MonotonicClock.now() - 3
        let clock: @Sendable () -> Double = { MonotonicClock.now() - origin }
        let soundtrack = Soundtrack(path: path, start: 0, sampleRate: Self.rate, loop: false, synchronous: false,
                                    clock: clock, logger: Logger(label: "test"))
        defer { soundtrack.stop() }
        let deadline = MonotonicClock.now() + 30
        // The seek lands `resyncLead` ahead of the clock (silence until there: nothing is decoded
        // before it), so that its first chunk is ready before it is heard.
        let lead = Soundtrack.resyncLead + 0.05
        while !(soundtrack.decodedSpan.to > clock() + lead + 0.05) {
            if MonotonicClock.now() > deadline { return XCTFail("the thread never reached the clock: \(soundtrack.decodedSpan) at \(clock())") }
            usleep(20_000)
        }
        var out = [Float](repeating: 0, count: 2048)
        out.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: 1024, at: clock() + lead) }
        XCTAssertGreaterThan(Self.rms(out[...]), 0.05, "heard from the seek's landing on")
        let counts = soundtrack.decodingCounts
        XCTAssertGreaterThanOrEqual(counts.resyncs, 1, "it sought ahead")
        // 3 s of 44.1 kHz AAC are ~130 chunks of 1024 frames; from the seek on, the read-ahead's
        // 0.5 s and what the clock passed meanwhile are a few dozen.
        XCTAssertLessThan(counts.chunks, 100, "it did not decode the 3 s before the clock: \(counts)")
    }

    /// A machine so starved that the decoder is slower than the clock (here each call into it
    /// waits 100 ms: a seek and its first chunk take 0.2 s, more than `resyncLead`, and a 23 ms
    /// chunk takes 0.1 s): every seek with the fixed lead landed behind the clock, its sound was
    /// dropped and the clip stayed silent throughout, seeking every half second (stop 58's VM run
    /// at five times its quiet speed). The lead grows to what the seeks take, so the sound is
    /// heard in stretches between them. The output asks for a period's sound every period, at
    /// the clock's time when it asks, as `ALSAOutput` does (the clock plus what the device has
    /// queued), so an output that falls behind goes on from the clock. (Counting periods, the loop
    /// fell 8.5 s behind the clock under qemu-user on a busy host, and every period it asked for
    /// had passed: silence that was the test's, not the soundtrack's.)
    func testAStarvedDecoderIsHeardBetweenItsSeeks() throws {
        let path = try TestClips.withTone(seconds: 30)
        let origin = MonotonicClock.now()
        let clock: @Sendable () -> Double = { MonotonicClock.now() - origin }
        let soundtrack = Soundtrack(path: path, start: 0, sampleRate: Self.rate, loop: false, synchronous: false,
                                    clock: clock, logger: Logger(label: "test"), stall: { usleep(100_000) })
        defer { soundtrack.stop() }
        let period = 1024
        var out = [Float](repeating: 0, count: period * 2)
        var loudPeriods = 0
        // Until some sound was heard after two seeks or more; a limit in clip time (the clip's
        // length) that only a soundtrack that never plays reaches.
        while clock() < 28 && !(loudPeriods > 0 && soundtrack.decodingCounts.resyncs >= 2) {
            usleep(UInt32(period * 1_000_000 / Self.rate))
            for i in out.indices { out[i] = 0 }
            let now = clock()
            out.withUnsafeMutableBufferPointer { soundtrack.render(into: $0, frames: period, at: now) }
            if Self.rms(out[...]) > 0.05 { loudPeriods += 1 }
        }
        let counts = soundtrack.decodingCounts, heard = soundtrack.heardCounts
        print(String(format: "starved decoder: %d loud periods by clip time %.1f s of the 28 allowed, %d seeks, landing %.2f s ahead",
                     loudPeriods, clock(), counts.resyncs, soundtrack.nextLandingLead))
        XCTAssertGreaterThan(loudPeriods, 0, "heard between the seeks: \(counts), \(heard) by clip time \(clock())")
        XCTAssertGreaterThanOrEqual(counts.resyncs, 2, "the decoder slower than the clock kept seeking ahead: \(counts)")
        XCTAssertGreaterThan(soundtrack.nextLandingLead, Soundtrack.resyncLead, "seeks land further ahead")
        XCTAssertLessThanOrEqual(soundtrack.nextLandingLead, Soundtrack.maxResyncLead)
    }
}
