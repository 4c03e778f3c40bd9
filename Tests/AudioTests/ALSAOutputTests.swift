@testable import Audio
import Foundation
import LinuxSystem
import Logging
import XCTest

/// Log lines the output writes, collected.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    var logger: Logger { Logger(label: "test") { _ in Handler(sink: self) } }
    struct Handler: LogHandler {
        let sink: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? { get { nil } set {} }
        func log(event: LogEvent) { sink.lock.lock(); sink.lines.append("\(event.level): \(event.message)"); sink.lock.unlock() }
    }
}

final class ALSAOutputTests: XCTestCase {
    /// Waits up to `timeout` seconds for `condition`; fails naming `step` when it never holds.
    func wait(_ step: String, timeout: Double = 20, _ condition: () -> Bool) {
        let deadline = MonotonicClock.now() + timeout
        while !condition() {
            if MonotonicClock.now() > deadline { XCTFail("timed out waiting for: \(step)"); return }
            usleep(10_000)
        }
    }

    /// A device that does not exist: one log line naming it and the errno, no stall of the
    /// caller (it only swaps channels), the thread retries later and stops when asked.
    func testMissingDeviceIsOneLogLineAndSilence() {
        let log = LogLines()
        let mixer = AudioMixer()
        let output = ALSAOutput(device: "kiosk_test_no_such_pcm", mixer: mixer, clock: { MonotonicClock.now() },
                                logger: log.logger)
        XCTAssertEqual(output.statistics.failures, 0, "nothing to play: the device is not even tried")
        let started = MonotonicClock.now()
        mixer.playSoundtrack(ConstantSource(level: 0.1))
        mixer.say(PCMClip(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 100, count: 4800)))
        XCTAssertLessThan(MonotonicClock.now() - started, 0.5, "the caller never waits for the device")
        wait("the open to fail") { output.statistics.failures >= 1 }
        wait("the log line") { !log.all.isEmpty }
        XCTAssertEqual(log.all.count, 1, "\(log.all)")
        let line = log.all.first ?? ""
        XCTAssertTrue(line.hasPrefix("error: audio: ALSA device \"kiosk_test_no_such_pcm\": snd_pcm_open: "), line)
        XCTAssertTrue(line.contains("(errno "), line)
        XCTAssertTrue(line.contains("trying again every 5 s"), line)
        XCTAssertTrue(output.stop(timeout: 10), "the thread ends when asked, even while waiting to retry")
    }

    /// ALSA's `null` PCM: opened once something plays, written period by period, closed when
    /// the output stops; the open and the close are logged at info, nothing worse.
    func testNullDeviceOpensWhilePlayingAndClosesAfter() {
        let log = LogLines()
        let mixer = AudioMixer()
        let source = ConstantSource(level: 0.1)
        let output = ALSAOutput(device: "null", mixer: mixer, clock: { MonotonicClock.now() }, logger: log.logger)
        mixer.playSoundtrack(source)
        wait("the device to open") { output.statistics.opens == 1 }
        wait("periods to be mixed") { source.times.count >= 3 }
        mixer.stopSoundtrack(source)
        XCTAssertTrue(output.stop(timeout: 10))
        XCTAssertEqual(output.statistics.failures, 0)
        XCTAssertEqual(log.all.count, 2, "\(log.all)")
        XCTAssertTrue(log.all.first?.hasPrefix("info: audio: playing on ALSA device \"null\": ") == true, "\(log.all)")
        XCTAssertTrue(log.all.last?.hasPrefix("info: audio: closed ALSA device \"null\" after ") == true, "\(log.all)")
    }

    /// A new device (a reload): the old output stops, the mixer reopens, the new output plays the
    /// same soundtrack.
    func testAnotherOutputTakesOverAfterReopen() {
        let mixer = AudioMixer()
        let source = ConstantSource(level: 0.1)
        mixer.playSoundtrack(source)
        let first = ALSAOutput(device: "null", mixer: mixer, clock: { MonotonicClock.now() }, logger: LogLines().logger)
        wait("the first output to open") { first.statistics.opens == 1 }
        XCTAssertTrue(first.stop(timeout: 10))
        mixer.reopen()
        let asked = source.times.count
        let second = ALSAOutput(device: "null", mixer: mixer, clock: { MonotonicClock.now() }, logger: LogLines().logger)
        wait("the second output to open and mix") { second.statistics.opens == 1 && source.times.count > asked + 2 }
        XCTAssertTrue(second.stop(timeout: 10))
    }
}
