import CALSA
import Foundation
import LinuxSystem
import Logging

/// The kiosk's sound output: an ALSA PCM (`[audio] device`) written from a thread of its own, in
/// blocking mode, one period at a time, with what `AudioMixer` mixes for the moment each period
/// will be heard (the session's clock plus the samples still queued in the device).
///
/// - Nothing to play: the thread sleeps on the mixer's condition (no polling) and the PCM is
///   closed once a second of silence has passed — an idle kiosk holds no sound device and uses
///   no CPU for sound.
/// - Something to play: the PCM is opened (`SND_PCM_NONBLOCK` for the open alone, so a device
///   another program holds answers `EBUSY` at once instead of blocking; then blocking writes).
///   An underrun or a suspend is recovered with `snd_pcm_recover`.
/// - A device that cannot be opened or fails: one log line naming the device and the error
///   (again only when the error changes), silence, and another try every `retryInterval` seconds
///   while there is something to play. The loop never waits for any of it: it only swaps the
///   mixer's channels.
public final class ALSAOutput: @unchecked Sendable {
    /// Seconds between two tries at opening a device that failed.
    public static let retryInterval = 5.0
    /// Seconds of silence after which the PCM is closed.
    public static let closeAfterSilence = 1.0
    /// The latency asked of ALSA (`snd_pcm_set_params`), in microseconds: 4 periods of ~21 ms.
    static let latencyMicroseconds: UInt32 = 85_000

    public let device: String
    private let mixer: AudioMixer
    private let clock: @Sendable () -> Double
    private let logger: Logger
    private let state = NSLock()
    private var counters = (opens: 0, failures: 0, underruns: 0)
    private var threadDone = false
    private let exited = NSCondition()

    /// Starts the output thread for `device` (an ALSA PCM name: `default`, `hw:1,0`,
    /// `plughw:Loopback,0`…). `clock` is the session's clock (seconds, the reactor's `now`).
    public init(device: String, mixer: AudioMixer, clock: @escaping @Sendable () -> Double, logger: Logger) {
        self.device = device
        self.mixer = mixer
        self.clock = clock
        self.logger = logger
        let thread = Thread { [self] in run() }
        thread.name = "audio"
        thread.start()
    }

    /// Times the PCM was opened, opening failed, and the device underran, so far.
    public var statistics: (opens: Int, failures: Int, underruns: Int) {
        state.lock(); defer { state.unlock() }; return counters
    }

    /// Ends the thread (it stops after the period it is writing and closes the PCM) and waits
    /// up to `timeout` seconds for it; true when it ended.
    @discardableResult
    public func stop(timeout: Double = 1) -> Bool {
        mixer.close()
        let deadline = Date(timeIntervalSinceNow: timeout)
        exited.lock()
        defer { exited.unlock() }
        while !threadDone { if !exited.wait(until: deadline) { return threadDone } }
        return true
    }

    // MARK: The thread

    private func run() {
        defer {
            exited.lock(); threadDone = true; exited.broadcast(); exited.unlock()
        }
        var lastError: Int32?
        var failedAt: Double?
        while !mixer.isClosed {
            guard mixer.waitUntilActive(timeout: 3600), !mixer.isClosed else { continue }
            if let failedAt {
                let wait = failedAt + Self.retryInterval - MonotonicClock.now()
                if wait > 0 { _ = waitForClose(timeout: wait); continue }
            }
            let pcm: PCM
            let opening = MonotonicClock.now()
            do {
                pcm = try PCM(device: device)
            } catch let error as SystemCallError {
                bump { $0.failures += 1 }
                failedAt = MonotonicClock.now()
                if lastError != error.errno {
                    lastError = error.errno
                    logger.error("audio: \(error) (errno \(error.errno)); the kiosk plays no sound, trying again every \(Int(Self.retryInterval)) s while there is something to play")
                }
                continue
            } catch { continue }
            if lastError != nil { logger.notice("audio: ALSA device \"\(device)\" opened; sound plays again") }
            let took = Int((MonotonicClock.now() - opening) * 1000)
            logger.info("audio: playing on ALSA device \"\(device)\": \(pcm.periodFrames)-frame periods, \(pcm.bufferFrames)-frame buffer (opened in \(took) ms)")
            lastError = nil
            failedAt = nil
            bump { $0.opens += 1 }
            if let error = play(pcm) {
                bump { $0.failures += 1 }
                failedAt = MonotonicClock.now()
                lastError = error.errno
                logger.error("audio: \(error) (errno \(error.errno)); the kiosk plays no sound, trying again every \(Int(Self.retryInterval)) s while there is something to play")
            }
        }
    }

    /// Writes the mix to `pcm` until a second of silence or a failure; closes it. The closing
    /// line says how many periods were written and how many of them held sound (not all zeros):
    /// what reached the device, told apart from what the sources had to give (a decoder that
    /// falls behind leaves its periods silent).
    private func play(_ pcm: PCM) -> SystemCallError? {
        var periods = 0, soundPeriods = 0, underruns = 0
        defer {
            pcm.close()
            logger.info("audio: closed ALSA device \"\(device)\" after \(periods) periods (\(soundPeriods) with sound), \(underruns) underruns")
        }
        var buffer = [Int16](repeating: 0, count: pcm.periodFrames * AudioFormat.channels)
        var silentSince: Double?
        while !mixer.isClosed {
            if mixer.isActive { silentSince = nil } else {
                let now = MonotonicClock.now()
                if let since = silentSince, now - since >= Self.closeAfterSilence { return nil }
                if silentSince == nil { silentSince = now }
            }
            let heardAt = clock() + Double(pcm.queuedFrames) / Double(AudioFormat.sampleRate)
            let sound = buffer.withUnsafeMutableBufferPointer { out -> Bool in
                mixer.mix(frames: pcm.periodFrames, at: heardAt, into: out)
                return out.contains { $0 != 0 }
            }
            periods += 1
            if sound { soundPeriods += 1 }
            switch pcm.write(buffer) {
            case .written: break
            case .recovered:
                underruns += 1
                bump { $0.underruns += 1 }
            case .failed(let error): return error
            }
        }
        return nil
    }

    private func waitForClose(timeout: Double) -> Bool { mixer.waitUntilClosed(timeout: timeout) }

    private func bump(_ change: (inout (opens: Int, failures: Int, underruns: Int)) -> Void) {
        state.lock(); change(&counters); state.unlock()
    }
}

/// An open ALSA playback PCM in `AudioFormat`, blocking writes.
final class PCM {
    enum WriteResult { case written, recovered, failed(SystemCallError) }

    private var handle: OpaquePointer?
    let device: String
    let periodFrames: Int
    let bufferFrames: Int

    init(device: String) throws {
        self.device = device
        // libasound is opened here, on the audio thread, at the first open (SoundLibrary), and
        // told to keep its own messages to itself (the failures are ours to log).
        try SoundLibrary.load(for: device)
        kc_alsa_silence_errors()
        var pcm: OpaquePointer?
        var rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard rc >= 0, let pcm else { throw Self.error("snd_pcm_open", rc, device) }
        handle = pcm
        rc = snd_pcm_nonblock(pcm, 0)
        if rc >= 0 {
            rc = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(AudioFormat.channels),
                                    UInt32(AudioFormat.sampleRate), 1, ALSAOutput.latencyMicroseconds)
            if rc < 0 { snd_pcm_close(pcm); handle = nil; throw Self.error("snd_pcm_set_params", rc, device) }
        } else {
            snd_pcm_close(pcm); handle = nil; throw Self.error("snd_pcm_nonblock", rc, device)
        }
        var bufferSize: snd_pcm_uframes_t = 0, periodSize: snd_pcm_uframes_t = 0
        if snd_pcm_get_params(pcm, &bufferSize, &periodSize) < 0 || periodSize == 0 { periodSize = 1024 }
        periodFrames = Int(periodSize)
        bufferFrames = Int(bufferSize)
    }

    deinit { close() }

    func close() {
        guard let pcm = handle else { return }
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
        handle = nil
    }

    /// Frames written but not yet heard (0 when ALSA cannot say).
    var queuedFrames: Int {
        guard let pcm = handle else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) >= 0 ? max(0, Int(delay)) : 0
    }

    /// Writes `samples` (whole frames), blocking; an underrun or suspend is recovered and the
    /// rest written.
    func write(_ samples: [Int16]) -> WriteResult {
        guard let pcm = handle else { return .failed(SystemCallError(call: "snd_pcm_writei", errno: EBADF, subject: subject)) }
        var recovered = false
        var offset = 0
        let total = samples.count / AudioFormat.channels
        while offset < total {
            let n = samples.withUnsafeBufferPointer {
                snd_pcm_writei(pcm, $0.baseAddress! + offset * AudioFormat.channels, snd_pcm_uframes_t(total - offset))
            }
            if n >= 0 { offset += Int(n); continue }
            let code = Int32(n)
            if code == -EINTR { continue }
            guard snd_pcm_recover(pcm, code, 1) >= 0 else {
                return .failed(Self.error("snd_pcm_writei", code, device))
            }
            recovered = true
        }
        return recovered ? .recovered : .written
    }

    private var subject: String { "ALSA device \"\(device)\"" }

    static func error(_ call: String, _ code: Int32, _ device: String) -> SystemCallError {
        SystemCallError(call: call, errno: -code, subject: "ALSA device \"\(device)\"")
    }
}
