import Foundation
import LinuxSystem
import Logging
import RasterCore
import TestSupport
@testable import Video
import XCTest

/// A compose closure that copies each frame into a new texture and remembers it weakly, to
/// count how many composed textures are alive.
final class ComposeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [WeakTexture] = []
    struct WeakTexture { weak var texture: Texture? }

    var calls: Int { lock.lock(); defer { lock.unlock() }; return made.count }
    var alive: Int { lock.lock(); defer { lock.unlock() }; return made.filter { $0.texture != nil }.count }

    func compose(_ t: Texture) -> Texture {
        let out = Texture(width: t.width, height: t.height)
        out.pixels.update(from: t.pixels, count: t.width * t.height)
        lock.lock(); made.append(WeakTexture(texture: out)); lock.unlock()
        return out
    }
}

final class PlayerTests: XCTestCase {
    func options(synchronous: Bool = false, loop: Bool = false, depth: Int = 3) -> VideoPlayer.Options {
        var o = VideoPlayer.Options()
        o.synchronous = synchronous
        o.loop = loop
        o.queueDepth = depth
        o.hardware = .off
        return o
    }

    func testSynchronousPlayerIsDeterministic() throws {
        let path = try Clips.moving()
        let log = LogCapture()
        let a = VideoPlayer(path: path, outputWidth: 80, outputHeight: 60, options: options(synchronous: true), logger: log.logger)
        let b = VideoPlayer(path: path, outputWidth: 80, outputHeight: 60, options: options(synchronous: true), logger: log.logger)
        let a1 = try XCTUnwrap(a.frame(at: 1.0))
        let b1 = try XCTUnwrap(b.frame(at: 1.0))
        XCTAssertEqual(a1.time, 1.0, accuracy: 1e-6)
        XCTAssertTrue(samePixels(a1.texture, b1.texture), "same time, same frame")
        XCTAssertTrue(a.frame(at: 1.0)?.texture === a1.texture, "asking again gives the same frame")
        let a15 = try XCTUnwrap(a.frame(at: 1.5))
        XCTAssertEqual(a15.time, 1.5, accuracy: 1e-6)
        XCTAssertFalse(samePixels(a1.texture, a15.texture), "the pattern moves between 1.0 s and 1.5 s")
        XCTAssertEqual(a.nextFrameTime ?? -1, 1.6, accuracy: 1e-6)
        // Stepping there frame by frame gives the same picture as jumping.
        let c = VideoPlayer(path: path, outputWidth: 80, outputHeight: 60, options: options(synchronous: true), logger: log.logger)
        for k in 0...15 { _ = c.frame(at: Double(k) / 10) }
        XCTAssertTrue(samePixels(try XCTUnwrap(c.frame(at: 1.5)).texture, a15.texture))
        XCTAssertEqual(a.state, .playing)
        XCTAssertEqual(log.messages(.info).count, 3, "one line per player opened: \(log.messages(.info))")
        XCTAssertTrue(log.messages(.info)[0].contains("decoder h264 (software; hardware decode off)"), log.messages(.info)[0])
    }

    func testLateFramesAreSkippedNotComposed() throws {
        let path = try Clips.moving()
        let log = LogCapture()
        let counter = ComposeCounter()
        let sync = VideoPlayer(path: path, outputWidth: 40, outputHeight: 30, options: options(synchronous: true),
                               compose: counter.compose, logger: log.logger)
        let far = try XCTUnwrap(sync.frame(at: 2.5))
        XCTAssertEqual(far.time, 2.5, accuracy: 1e-6)
        XCTAssertEqual(counter.calls, 1, "only the frame returned is composed")
        XCTAssertGreaterThanOrEqual(sync.skippedFrames, 20)

        let threaded = ComposeCounter()
        let player = VideoPlayer(path: path, outputWidth: 40, outputHeight: 30, options: options(),
                                 compose: threaded.compose, logger: log.logger)
        _ = player.frame(at: 2.5)
        XCTAssertTrue(player.waitUntilIdle(timeout: 10))
        _ = player.frame(at: 2.5)
        XCTAssertTrue(player.waitUntilIdle(timeout: 10))
        let frame = try XCTUnwrap(player.frame(at: 2.5))
        XCTAssertEqual(frame.time, 2.5, accuracy: 1e-6)
        XCTAssertLessThanOrEqual(threaded.calls, 8, "30 frames, most of them late: not all composed")
        XCTAssertGreaterThanOrEqual(player.skippedFrames, 15)
    }

    func testQueueDepthBoundsComposedTexturesAndFramesHaveTheRequestedSize() throws {
        let path = try Clips.fullHD()
        let log = LogCapture()
        let counter = ComposeCounter()
        let depth = 2
        let player = VideoPlayer(path: path, outputWidth: 320, outputHeight: 180, options: options(depth: depth),
                                 compose: counter.compose, logger: log.logger)
        XCTAssertTrue(player.waitUntilIdle(timeout: 20))
        XCTAssertEqual(counter.alive, depth, "the queue is full, nothing returned yet")
        var t = 0.0
        while t < 1.0 {
            do {
                if let f = player.frame(at: t) {
                    XCTAssertEqual(f.texture.width, 320)
                    XCTAssertEqual(f.texture.height, 180)
                }
            }
            XCTAssertLessThanOrEqual(counter.alive, depth + 1, "at t = \(t)")
            _ = player.waitUntilIdle(timeout: 20)
            XCTAssertLessThanOrEqual(counter.alive, depth + 1, "at t = \(t)")
            t += 0.1
        }
        XCTAssertTrue(player.waitForThreadExit(timeout: 20))
        XCTAssertEqual(player.state, .ended)
        XCTAssertEqual(counter.calls, 10)
        XCTAssertEqual(player.frame(at: 100)?.time ?? -1, 0.9, accuracy: 1e-6, "the last frame stays")
    }

    func testLoopTimesKeepIncreasing() throws {
        let path = try Clips.moving()
        let log = LogCapture()
        let sync = VideoPlayer(path: path, outputWidth: 16, outputHeight: 12, options: options(synchronous: true, loop: true),
                               logger: log.logger)
        let first = try XCTUnwrap(sync.frame(at: 0.2))
        let again = try XCTUnwrap(sync.frame(at: 3.2))
        XCTAssertEqual(again.time, 3.2, accuracy: 1e-6, "loop 1 starts at the clip's length (3 s)")
        XCTAssertTrue(samePixels(first.texture, again.texture))
        XCTAssertEqual(try XCTUnwrap(sync.frame(at: 9.05)).time, 9.0, accuracy: 1e-6)
        XCTAssertEqual(sync.state, .playing)

        let player = VideoPlayer(path: path, outputWidth: 16, outputHeight: 12, options: options(loop: true), logger: log.logger)
        var times: [Double] = []
        let deadline = monotonicNow() + 20
        while (times.last ?? 0) < 7, monotonicNow() < deadline {
            _ = player.waitUntilIdle(timeout: 5)
            guard let next = player.nextFrameTime, let f = player.frame(at: next) else { continue }
            times.append(f.time)
        }
        XCTAssertGreaterThan(times.count, 60)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, 0.1, accuracy: 1e-6) }
    }

    func testSingleFrameClipEndsAndKeepsItsFrame() throws {
        let log = LogCapture()
        let player = VideoPlayer(path: try Clips.singleFrame(), outputWidth: 8, outputHeight: 8, options: options(),
                                 logger: log.logger)
        XCTAssertTrue(player.waitForThreadExit(timeout: 10))
        XCTAssertEqual(player.state, .ended)
        XCTAssertNotNil(player.frame(at: 0))
        XCTAssertNotNil(player.frame(at: 50))
        let looping = VideoPlayer(path: try Clips.singleFrame(), outputWidth: 8, outputHeight: 8,
                                  options: options(synchronous: true, loop: true), logger: log.logger)
        XCTAssertEqual(try XCTUnwrap(looping.frame(at: 0.5)).time, 0.44, accuracy: 0.05, "one 0.04 s frame, looped")
    }

    func testOpenFailureIsAFailedStateLoggedOnceAndSignalled() throws {
        let log = LogCapture()
        let missing = Clips.folder + "/missing.mp4"
        let player = VideoPlayer(path: missing, outputWidth: 8, outputHeight: 8, options: options(), logger: log.logger)
        XCTAssertTrue(waitReadable(player.eventFD, timeout: 10))
        XCTAssertTrue(player.waitForThreadExit(timeout: 10))
        XCTAssertEqual(player.state, .failed("\(missing): no such file"))
        XCTAssertNil(player.frame(at: 1))
        XCTAssertEqual(log.messages(.error), ["video stopped: \(missing): no such file"])
        player.drainEvents()
        XCTAssertFalse(waitReadable(player.eventFD, timeout: 0))
    }

    func testFailureMidwayKeepsTheLastGoodFrameAndIsLoggedOnce() throws {
        let path = try Clips.damagedMidway()
        let log = LogCapture()
        let player = VideoPlayer(path: path, outputWidth: 16, outputHeight: 12, options: options(synchronous: true, loop: true),
                                 logger: log.logger)
        var last: VideoFrame?
        for k in 0..<100 { if let f = player.frame(at: Double(k) / 10) { last = f } }
        let frame = try XCTUnwrap(last)
        XCTAssertGreaterThan(frame.time, 2)
        guard case .failed(let reason) = player.state else { return XCTFail("\(player.state)") }
        XCTAssertTrue(reason.hasPrefix(path + ": "), reason)
        XCTAssertTrue(reason.contains("did not decode"), reason)
        XCTAssertTrue(player.frame(at: 20)?.texture === frame.texture, "the last good frame stays")
        XCTAssertEqual(log.messages(.error).count, 1)

        let threadLog = LogCapture()
        let threaded = VideoPlayer(path: path, outputWidth: 16, outputHeight: 12, options: options(loop: true),
                                   logger: threadLog.logger)
        let deadline = monotonicNow() + 20
        while monotonicNow() < deadline, threaded.state == .starting || threaded.state == .playing {
            _ = threaded.waitUntilIdle(timeout: 1)
            if let next = threaded.nextFrameTime { _ = threaded.frame(at: next) }
        }
        guard case .failed = threaded.state else { return XCTFail("\(threaded.state)") }
        XCTAssertNotNil(threaded.frame(at: 100))
        XCTAssertEqual(threadLog.messages(.error).count, 1)
    }

    func testTruncatedClipEndsWithTheFramesItHas() throws {
        let path = try Clips.truncated(try Clips.moving(faststart: true), name: "player-truncated.mp4")
        let log = LogCapture()
        let player = VideoPlayer(path: path, outputWidth: 16, outputHeight: 12, options: options(synchronous: true),
                                 logger: log.logger)
        for k in 0..<40 { _ = player.frame(at: Double(k) / 10) }
        XCTAssertNotNil(player.frame(at: 4))
        // The demuxer reads the cut-off packet short and then sees the end of the file: a clean end.
        XCTAssertEqual(player.state, .ended)
        XCTAssertEqual(log.messages(.error), [])
    }

    func testStopEndsTheThreadPromptly() throws {
        let log = LogCapture()
        let player = VideoPlayer(path: try Clips.tenMinutes(), outputWidth: 64, outputHeight: 48, options: options(),
                                 logger: log.logger)
        _ = player.waitUntilIdle(timeout: 10)
        let start = monotonicNow()
        player.stop()
        XCTAssertTrue(player.waitForThreadExit(timeout: 5))
        XCTAssertLessThan(monotonicNow() - start, 0.5)
        player.stop()
    }

    func testFirstSecondsOfPlaybackOfATenMinuteClipReadOnlyItsBeginning() throws {
        let log = LogCapture()
        let player = VideoPlayer(path: try Clips.tenMinutes(), outputWidth: 32, outputHeight: 24,
                                 options: options(synchronous: true), logger: log.logger)
        XCTAssertEqual(try XCTUnwrap(player.frame(at: 5)).time, 5, accuracy: 1e-6)
        let stats = try XCTUnwrap(player.readStatistics)
        XCTAssertLessThan(stats.furthestByte, stats.fileSize / 10, "\(stats)")
        for target in stats.seekTargets { XCTAssertLessThan(target, stats.fileSize / 10, "\(stats)") }
    }
}
