import Audio
import Foundation
import LinuxSystem

/// `bench video`'s stand-in for the ALSA output on a machine without a sound card: a thread that
/// pulls the mixer one 1024-frame period at a time at the real rate (sleeping until each
/// period's time, as a blocking write would), for the time the period will be heard at (the
/// clock plus the output's latency). What it costs is what the output thread costs less the
/// write into the device.
final class BenchSoundPull: @unchecked Sendable {
    static let periodFrames = 1024
    private let lock = NSLock()
    private var stopped = false
    private(set) var periods = 0

    init(mixer: AudioMixer, clock: @escaping @Sendable () -> Double) {
        let thread = Thread { [self] in
            var buffer = [Int16](repeating: 0, count: Self.periodFrames * AudioFormat.channels)
            let period = Double(Self.periodFrames) / Double(AudioFormat.sampleRate)
            var next = MonotonicClock.now()
            while !isStopped {
                buffer.withUnsafeMutableBufferPointer { mixer.mix(frames: Self.periodFrames, at: clock() + 0.085, into: $0) }
                lock.lock(); periods += 1; lock.unlock()
                next += period
                let pause = next - MonotonicClock.now()
                if pause > 0 { usleep(UInt32(pause * 1e6)) }
            }
        }
        thread.name = "bench-sound"
        thread.start()
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    func stop() { lock.lock(); stopped = true; lock.unlock() }
}
