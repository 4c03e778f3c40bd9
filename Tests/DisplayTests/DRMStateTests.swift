import CarouselCore
import Raster
import XCTest
@testable import Display

/// `DRMDisplay`'s state as types (`DRMState.swift`): each transition of ownership, output, flip
/// and presenter, and the `FrameShown` records the flips produce.
extension DRMDisplayTests {
    private func configured(_ d: DRMDisplay, file: StaticString = #filePath, line: UInt = #line) -> DRMConfiguredOutput? {
        guard case .configured(let out) = d.backend.output else {
            XCTFail("output is \(d.backend.output), not configured", file: file, line: line)
            return nil
        }
        return out
    }

    func testOpenedOutputIsConfiguredForPageFlipsAndWaitsForItsModeSet() throws {
        let d = try open()
        XCTAssertEqual(d.backend.ownership, .owned)
        XCTAssertEqual(d.backend.flip, .idle)
        let out = try XCTUnwrap(configured(d))
        XCTAssertEqual(out.presenter, .pageFlip)
        XCTAssertTrue(out.needsModeSet)
        XCTAssertEqual(out.mode.description, "1024x768@60")
        try d.present(patternFrame(width: 1024, height: 768, generation: 1), damage: [])
        XCTAssertEqual(configured(d)?.needsModeSet, false)
        XCTAssertEqual(configured(d)?.front, 1)
        XCTAssertEqual(d.backend.pacing, .clock, "a mode set has no completion event")
    }

    func testLostMasterRetriesUntilItIsBack() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.otherMaster = true
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(d.backend.ownership, .lost(retryAt: sys.now + DRMBackend.masterRetryInterval))
        XCTAssertEqual(d.backend.flip, .idle)
        XCTAssertEqual(configured(d)?.needsModeSet, true, "the other program's picture is on the CRTC")

        sys.now += DRMBackend.masterRetryInterval
        XCTAssertFalse(d.handleWake())
        XCTAssertEqual(d.backend.ownership, .lost(retryAt: sys.now + DRMBackend.masterRetryInterval), "retried, still lost")

        sys.otherMaster = false
        sys.now += DRMBackend.masterRetryInterval
        XCTAssertFalse(d.handleWake())
        XCTAssertEqual(d.backend.ownership, .owned)
        XCTAssertEqual(configured(d)?.needsModeSet, true)
        XCTAssertTrue(d.wantsFrame)
    }

    func testReleasedIsNotRetriedAndReacquireOwnsAgain() throws {
        let (d, _) = try openShowingFirstFrame()
        d.release()
        XCTAssertEqual(d.backend.ownership, .released)
        XCTAssertNil(d.nextWakeTime)
        sys.otherMaster = true
        d.reacquire()
        XCTAssertEqual(d.backend.ownership, .lost(retryAt: sys.now + DRMBackend.masterRetryInterval), "taken by someone else meanwhile")
        sys.otherMaster = false
        sys.now += DRMBackend.masterRetryInterval
        _ = d.handleWake()
        XCTAssertEqual(d.backend.ownership, .owned)
    }

    func testUnplugThenPlugConfiguresTheOutputAgainWithTheSamePresenter() throws {
        let (d, _) = try openShowingFirstFrame()
        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", connected: false, modes: [])
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        guard case .unplugged = d.backend.output else { return XCTFail("\(d.backend.output)") }
        XCTAssertNil(d.currentMode)
        XCTAssertFalse(d.canPresent)

        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [DRMMode(width: 800, height: 600, refresh: 60, preferred: true)])
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        let out = try XCTUnwrap(configured(d))
        XCTAssertEqual(out.mode.description, "800x600@60")
        XCTAssertEqual(out.buffers.count, 2)
        XCTAssertEqual(out.presenter, .pageFlip)
        XCTAssertTrue(out.needsModeSet)
    }

    func testARefusedFlipChoosesModeSetsOnceWithoutRetryingAndLaterConfiguresKeepThem() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.pageFlipErrno = EINVAL
        sys.clearCalls()
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("pageFlip") || $0.hasPrefix("setCrtc") },
                       ["pageFlip fb=100", "setCrtc 41 fb=100 conn=[51] mode=1024x768@60"],
                       "the refused frame is shown by one mode set, not by presenting again")
        XCTAssertEqual(d.backend.presenter, .setCrtcPerFrame)
        XCTAssertEqual(d.backend.presenterForDevice, .setCrtcPerFrame)
        XCTAssertEqual(d.backend.flip, .idle)
        XCTAssertEqual(d.backend.pacing, .clock)
        XCTAssertFalse(d.canPresent, "paced by the clock: no events")
        sys.now += 1
        XCTAssertTrue(d.canPresent)

        // A new mode (hotplug): the output is configured with mode sets from the start.
        sys.pageFlipErrno = nil
        sys.connectors[51]!.modes = [DRMMode(width: 1024, height: 768, refresh: 75, preferred: true)]
        hotplug.pending = true
        XCTAssertFalse(d.handleReadable(hotplug.fd))
        XCTAssertEqual(d.backend.presenter, .setCrtcPerFrame)
        sys.clearCalls()
        for _ in 0..<3 {
            sys.now += 1
            try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        }
        XCTAssertEqual(sys.callCount("pageFlip"), 0)
        XCTAssertEqual(sys.callCount("setCrtc"), 3)
    }

    func testFlipTimeoutIsReportedAsTimedOut() throws {
        let (d, frame) = try openShowingFirstFrame()
        var shown: [FrameShown] = []
        d.onFrameShown = { shown.append($0) }
        sys.flipDuration = 1000
        try d.present(frame, damage: [frame.bounds])
        guard case .pending(let buffer, let since, let sequence) = d.backend.flip else { return XCTFail("\(d.backend.flip)") }
        XCTAssertEqual(buffer, 0)
        XCTAssertEqual(since, sys.now)
        XCTAssertEqual(sequence, d.frameSequence)
        sys.now += DRMBackend.flipTimeout
        XCTAssertFalse(d.handleWake())
        XCTAssertEqual(d.backend.flip, .idle)
        XCTAssertEqual(configured(d)?.front, 0, "the flipped buffer is taken as shown")
        XCTAssertEqual(shown, [FrameShown(sequence: sequence, time: sys.now, timing: .timedOut, crtcID: 41)])
    }

    func testDPMSOffAndOnNeedsAModeSetAndKeepsTheFlipIdle() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.flipDuration = 0.005
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        XCTAssertEqual(d.backend.flip, .idle, "the flip in flight was waited for")
        XCTAssertEqual(d.backend.ownership, .owned)
        XCTAssertFalse(d.canPresent)
        XCTAssertEqual(d.setScreenPower(true), .switched(.dpms))
        XCTAssertEqual(configured(d)?.needsModeSet, true)
        XCTAssertEqual(configured(d)?.presenter, .pageFlip, "switching on is no reason to give up flips")
    }

    func testFlipEventsReportTheKernelsTimestampCrtcAndVBlankCounter() throws {
        let d = try open()
        var shown: [FrameShown] = []
        d.onFrameShown = { shown.append($0) }
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        XCTAssertEqual(d.frameSequence, 0)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(d.frameSequence, 1)
        XCTAssertEqual(shown, [FrameShown(sequence: 1, time: sys.now, timing: .submitted, crtcID: 41)], "a mode set has no event")

        sys.now += 1
        sys.flipDuration = 1.0 / 60
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 8, height: 8)])
        XCTAssertEqual(d.frameSequence, 2)
        let vblank = sys.now + 1.0 / 60
        sys.now += 0.05  // the loop reads the event late: the kernel's time counts, not the read's
        XCTAssertFalse(d.handleReadable(sys.drmFD))
        XCTAssertEqual(shown.last, FrameShown(sequence: 2, time: vblank, timing: .vblank, crtcID: 41, driverSequence: 1001))
        XCTAssertEqual(d.backend.pacing, .completionEvents, "a flip that waited for vblank paces by events")

        // A present that cannot go (flip in flight) takes no number.
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 8, height: 8)])
        XCTAssertEqual(d.frameSequence, 3)
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 8, height: 8)])
        XCTAssertEqual(d.frameSequence, 3)
    }
}
