import Foundation

/// What the kiosk plays, mixed into one stream (`AudioFormat`): a channel for the playing video
/// clip's soundtrack and one for speech, the soundtrack ducked while speech plays, both at the
/// master `volume`. An output pulls the mix from its own thread (`ALSAOutput`) or the simulator's
/// (`WAVRecorder`); the loop only swaps what the channels hold, under a lock held for a copy at
/// most — it never waits for the output.
///
/// Speech (`SpeechOutput`) starts at the next period the output pulls and replaces what was being
/// said; the soundtrack follows the session's clock (`SoundSource`).
public final class AudioMixer: SpeechOutput, @unchecked Sendable {
    /// The soundtrack's gain while speech plays: −12 dB.
    public static let duckedGain: Float = 0.25
    /// Seconds the soundtrack takes to duck and to come back (no click).
    public static let duckRamp = 0.05

    private let condition = NSCondition()
    private var soundtrack: SoundSource?
    /// Speech converted to `AudioFormat`, and the next frame to play.
    private var speech: [Float] = []
    private var speechPosition = 0
    private var masterVolume: Float
    /// The soundtrack's gain now, moving towards 1 or `duckedGain` by `duckStep` a frame.
    private var duckGain: Float = 1
    private let duckStep = Float(1 / (AudioMixer.duckRamp * Double(AudioFormat.sampleRate)))
    private var soundtrackBuffer: [Float] = []
    private var closed = false

    /// The session clock the output hears the mix on (seconds; nil on a virtual clock, where
    /// sources decode as they are asked): sources follow it while the output is not asking yet.
    public let clock: (@Sendable () -> Double)?

    /// `volume` is the master level, 0…1.
    public init(volume: Double = 0.8, clock: (@Sendable () -> Double)? = nil) {
        masterVolume = Float(min(1, max(0, volume)))
        self.clock = clock
    }

    /// The master level, 0…1 (`[audio] volume`); applies from the next period.
    public var volume: Double {
        get { condition.lock(); defer { condition.unlock() }; return Double(masterVolume) }
        set { condition.lock(); masterVolume = Float(min(1, max(0, newValue))); condition.unlock() }
    }

    /// Plays `source` as the soundtrack (replacing the one playing).
    public func playSoundtrack(_ source: SoundSource) {
        update { soundtrack = source }
    }

    /// Stops the soundtrack if it is `source` (a clip stopping never silences its successor).
    public func stopSoundtrack(_ source: SoundSource) {
        update { if soundtrack === source { soundtrack = nil } }
    }

    /// Whether a soundtrack is attached.
    public var hasSoundtrack: Bool { condition.lock(); defer { condition.unlock() }; return soundtrack != nil }

    // MARK: SpeechOutput

    public func say(_ clip: PCMClip) {
        let converted = Self.convert(clip)
        update {
            speech = converted
            speechPosition = 0
        }
    }

    public func stopSpeech() {
        update {
            speech = []
            speechPosition = 0
        }
    }

    public var isSpeaking: Bool { condition.lock(); defer { condition.unlock() }; return speechPosition < speech.count }

    // MARK: For outputs

    /// True while something is to be played (a soundtrack attached, speech not finished).
    public var isActive: Bool { condition.lock(); defer { condition.unlock() }; return activeLocked }

    /// Blocks the calling (output) thread until something is to be played, `timeout` seconds
    /// pass or `close()` is called; returns `isActive`. Never called on the loop.
    public func waitUntilActive(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !activeLocked && !closed {
            if !condition.wait(until: deadline) { break }
        }
        return activeLocked
    }

    /// Blocks the calling (output) thread until `close()` is called or `timeout` seconds pass;
    /// returns whether it was closed (a failed device's wait before the next try).
    public func waitUntilClosed(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed { if !condition.wait(until: deadline) { break } }
        return closed
    }

    /// Wakes an output waiting in `waitUntilActive` for good (the kiosk is stopping).
    public func close() { update { closed = true } }

    /// Lets a new output pull from the mixer after `close()` (the device changed).
    public func reopen() { update { closed = false } }

    /// True once `close()` was called.
    public var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

    /// Mixes `frames` frames heard from session time `time` on into `out` (interleaved,
    /// `AudioFormat`). The soundtrack renders outside the lock. Called by one output at a time
    /// (its thread, or the simulator's).
    public func mix(frames: Int, at time: Double, into out: UnsafeMutableBufferPointer<Int16>) {
        let count = frames * AudioFormat.channels
        precondition(out.count >= count, "mix buffer too small")
        condition.lock()
        let source = soundtrack
        condition.unlock()
        if soundtrackBuffer.count != count { soundtrackBuffer = [Float](repeating: 0, count: count) } else {
            for i in 0..<count { soundtrackBuffer[i] = 0 }
        }
        if let source {
            soundtrackBuffer.withUnsafeMutableBufferPointer { source.render(into: $0, frames: frames, at: time) }
        }
        condition.lock()
        defer { condition.unlock() }
        let speaking = speechPosition < speech.count
        // Pointers and locals: this runs once a period on the output thread, and a debug build's
        // checked array and property accesses would cost more than the period allows on a slow CPU.
        var duck = duckGain, position = speechPosition
        let volume = masterVolume, step = duckStep, ducked = Self.duckedGain, channels = AudioFormat.channels
        soundtrackBuffer.withUnsafeBufferPointer { track in
            speech.withUnsafeBufferPointer { voice in
                for frame in 0..<frames {
                    let target: Float = position < voice.count ? ducked : 1
                    if duck < target { duck = min(target, duck + step) } else if duck > target { duck = max(target, duck - step) }
                    for channel in 0..<channels {
                        let i = frame * channels + channel
                        var sample = track[i] * duck
                        if position < voice.count {
                            sample += voice[position]
                            position += 1
                        }
                        out[i] = Self.int16(sample * volume)
                    }
                }
            }
        }
        duckGain = duck
        speechPosition = position
        if speaking && speechPosition >= speech.count {
            speech = []
            speechPosition = 0
        }
    }

    // MARK: Helpers

    private var activeLocked: Bool { soundtrack != nil || speechPosition < speech.count }

    private func update(_ body: () -> Void) {
        condition.lock()
        body()
        condition.broadcast()
        condition.unlock()
    }

    static func int16(_ value: Float) -> Int16 {
        Int16(max(-32768, min(32767, (value * 32768).rounded())))
    }

    /// `clip` as `AudioFormat` floats: its channels mapped to stereo (mono to both, more than two:
    /// the first two), its rate to 48 kHz by linear interpolation.
    static func convert(_ clip: PCMClip) -> [Float] {
        let channels = max(1, clip.channels)
        let inFrames = clip.samples.count / channels
        guard inFrames > 0, clip.sampleRate > 0 else { return [] }
        let outFrames = Int((Int64(inFrames) * Int64(AudioFormat.sampleRate)) / Int64(clip.sampleRate))
        var out = [Float](repeating: 0, count: outFrames * AudioFormat.channels)
        let step = Double(clip.sampleRate) / Double(AudioFormat.sampleRate)
        func sample(_ frame: Int, _ channel: Int) -> Float {
            Float(clip.samples[min(frame, inFrames - 1) * channels + min(channel, channels - 1)]) / 32768
        }
        for frame in 0..<outFrames {
            let position = Double(frame) * step
            let index = Int(position)
            let fraction = Float(position - Double(index))
            for channel in 0..<AudioFormat.channels {
                let a = sample(index, channel), b = sample(index + 1, channel)
                out[frame * AudioFormat.channels + channel] = a + (b - a) * fraction
            }
        }
        return out
    }
}
