import Display
import Foundation
import KioskConfig
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// A clip playing on a resting carousel wakes the kiosk's loop through its player's eventfd and
/// its next frame's time (`VideoFrames`), not through the engine's tick at `tick_hz`: the tick
/// stays disarmed, and the loop wakes about once per frame shown.
final class KioskAppVideoWakeTests: XCTestCase {
    func testAPlayingClipIsShownWithoutTheTick() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-wake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try TestClips.moving(rate: 10, seconds: 3)
        let path = folder.appendingPathComponent("config.toml").path
        try """
            [carousel]
            type = "linear"
            item_size = [160, 120]
            tick_hz = 120
            [video]
            start_delay = 0
            [[item]]
            id = "film"
            title = "Film"
            video = "\(clip)"
            loop = true
            [[item]]
            id = "b"
            title = "B"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let log = try EventLog(path: nil)
        let display = HeadlessDisplay(width: 480, height: 320, paced: true)
        let app = try KioskApp(configPath: path, config: config, display: display, inputs: [], log: log,
                               logger: Logger(label: "test"), exitAfter: 60, notifier: nil)
        // Watch for 2 s from the first frame that shows the clip playing with nothing else
        // moving: every card's face drawn and faded in (a face arriving late from a busy
        // worker would fade in, and that rightly needs the tick).
        var playingSince: (time: Double, frames: Int, wakeups: Int)?
        var tickArmedWhilePlaying = false
        let stop = try TickTimer()
        try app.reactor.watch(stop.fd) { [unowned app] in app.reactor.stop() }
        let shown = display.onFrameShown
        display.onFrameShown = { [unowned app] frame in
            shown?(frame)
            guard app.behavior.video.cardVideo.isPlaying else { return }
            if playingSince == nil, !app.session.needsTick, (0..<2).allSatisfy(app.session.cards.isReady) {
                playingSince = (app.now, app.framesPresented, app.loopWakeups)
                stop.armOnce(after: 2)
            } else if playingSince != nil, app.session.needsTick {
                tickArmedWhilePlaying = true
            }
        }
        XCTAssertEqual(try app.run(), 0)
        let since = try XCTUnwrap(playingSince, "step 1: the clip started playing within the run's 60 s")
        let frames = app.framesPresented - since.frames
        let wakeups = app.loopWakeups - since.wakeups
        XCTAssertFalse(tickArmedWhilePlaying, "step 2: the engine's tick was not needed while the clip played at rest")
        // 10 frames a second for 2 s: about 20 frames (a loaded machine may drop some).
        XCTAssertGreaterThanOrEqual(frames, 8, "step 3: the clip's frames were shown (\(frames) in 2 s)")
        XCTAssertLessThanOrEqual(frames, 24, "step 3: one frame per clip frame, not per tick (\(frames) in 2 s)")
        // At 120 Hz the tick alone would wake the loop 240 times in 2 s.
        XCTAssertLessThan(wakeups, 120, "step 4: the loop woke for the clip's frames, not at tick_hz (\(wakeups) wake-ups in 2 s)")
        XCTAssertTrue(log.lines.contains { $0.contains("\"video_started\"") }, "the start was written")
    }
}
