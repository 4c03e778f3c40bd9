@testable import Audio
import Foundation
import XCTest

/// A constant level on both channels, for the mixer's channel tests.
final class ConstantSource: SoundSource, @unchecked Sendable {
    let level: Float
    private let lock = NSLock()
    private var asked: [Double] = []
    /// The times the source was asked for, in order.
    var times: [Double] { lock.lock(); defer { lock.unlock() }; return asked }
    init(level: Float) { self.level = level }
    func render(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int, at time: Double) {
        lock.lock(); asked.append(time); lock.unlock()
        for i in 0..<(frames * AudioFormat.channels) { buffer[i] += level }
    }
}

final class AudioMixerTests: XCTestCase {
    func mix(_ mixer: AudioMixer, frames: Int, at time: Double = 0) -> [Int16] {
        var out = [Int16](repeating: 0, count: frames * AudioFormat.channels)
        out.withUnsafeMutableBufferPointer { mixer.mix(frames: frames, at: time, into: $0) }
        return out
    }

    /// Nothing attached: silence, and the mixer says it is idle (the output may close its device).
    func testNothingPlayingIsSilentAndInactive() {
        let mixer = AudioMixer()
        XCTAssertFalse(mixer.isActive)
        XCTAssertEqual(Set(mix(mixer, frames: 256)), [0])
    }

    /// The soundtrack at the master volume; stopping another source leaves it playing.
    func testSoundtrackPlaysAtTheVolume() {
        let mixer = AudioMixer(volume: 0.5)
        let source = ConstantSource(level: 0.5)
        mixer.playSoundtrack(source)
        XCTAssertTrue(mixer.isActive)
        XCTAssertEqual(Set(mix(mixer, frames: 64, at: 1.25)), [8192])   // 0.5 × 0.5 × 32768
        XCTAssertEqual(source.times, [1.25], "the source is asked for the time the frames are heard")
        mixer.stopSoundtrack(ConstantSource(level: 0))
        XCTAssertTrue(mixer.hasSoundtrack, "only the source playing can be stopped")
        mixer.stopSoundtrack(source)
        XCTAssertFalse(mixer.isActive)
    }

    /// Speech plays at once, the soundtrack ducks to −12 dB within the ramp while it does, and
    /// comes back after it; `isSpeaking` follows.
    func testSpeechDucksTheSoundtrack() {
        let mixer = AudioMixer(volume: 1)
        mixer.playSoundtrack(ConstantSource(level: 0.5))
        XCTAssertEqual(Set(mix(mixer, frames: 100)), [16384])
        // Half a second of silence at 16 kHz mono as speech: only the ducking is heard.
        mixer.say(PCMClip(sampleRate: 16_000, channels: 1, samples: [Int16](repeating: 0, count: 8000)))
        XCTAssertTrue(mixer.isSpeaking)
        let ramp = Int(AudioMixer.duckRamp * Double(AudioFormat.sampleRate))
        let during = mix(mixer, frames: ramp + 100)
        XCTAssertTrue((16300..<16384).contains(during.first!), "the duck ramps, no click: \(during.first!)")
        XCTAssertEqual(Set(during.suffix(200)), [4096], "−12 dB: a quarter")
        _ = mix(mixer, frames: 24_000)
        XCTAssertFalse(mixer.isSpeaking, "half a second of speech is over after half a second of frames")
        let after = mix(mixer, frames: ramp + 100)
        XCTAssertEqual(Set(after.suffix(200)), [16384], "the soundtrack is back at its level")
    }

    /// `say` replaces what was being said; `stopSpeech` ends it at once.
    func testSayReplacesAndStopSpeechStops() {
        let mixer = AudioMixer(volume: 1)
        mixer.say(PCMClip(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 1000, count: 96_000)))
        XCTAssertEqual(Set(mix(mixer, frames: 10)), [1000])
        mixer.say(PCMClip(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: -2000, count: 20)))
        XCTAssertEqual(mix(mixer, frames: 12), [Int16](repeating: -2000, count: 20) + [0, 0, 0, 0])
        XCTAssertFalse(mixer.isSpeaking)
        mixer.say(PCMClip(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 1000, count: 96_000)))
        mixer.stopSpeech()
        XCTAssertFalse(mixer.isSpeaking)
        XCTAssertEqual(Set(mix(mixer, frames: 10)), [0])
    }

    /// A 22.05 kHz mono clip (espeak-ng's format) becomes 48 kHz stereo of the same length, both
    /// channels alike.
    func testSpeechIsConvertedTo48kStereo() {
        let clip = PCMClip(sampleRate: 22_050, channels: 1, samples: (0..<22_050).map { Int16($0 % 100) })
        let converted = AudioMixer.convert(clip)
        XCTAssertEqual(converted.count, 48_000 * 2)
        for i in stride(from: 0, to: converted.count, by: 997) where i % 2 == 0 {
            XCTAssertEqual(converted[i], converted[i + 1])
        }
    }

    /// Full scale is clipped, not wrapped.
    func testLoudMixClips() {
        let mixer = AudioMixer(volume: 1)
        mixer.playSoundtrack(ConstantSource(level: 0.9))
        mixer.say(PCMClip(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 30_000, count: 200)))
        XCTAssertEqual(mix(mixer, frames: 1), [32767, 32767])
    }
}
