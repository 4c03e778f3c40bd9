import CarouselCore
import CDRM
import Raster
import XCTest
@testable import Display

/// `DRMDisplay.setScreenPower`: the connector's DPMS property through the syscall seam. The fake
/// card behaves as an atomic driver does: a flip on a CRTC whose connector is DPMS Off fails with
/// EINVAL, and a mode set turns DPMS On.
extension DRMDisplayTests {
    func testDPMSLevelsAreTheKernelsNumbers() {
        XCTAssertEqual(ConnectorDPMS.Level.on.rawValue, UInt64(DRM_MODE_DPMS_ON))
        XCTAssertEqual(ConnectorDPMS.Level.off.rawValue, UInt64(DRM_MODE_DPMS_OFF))
    }

    func testFindsTheDPMSPropertyByNameAndSwitchesOffAndOn() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.clearCalls()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        XCTAssertEqual(sys.calls, ["getProperties 51", "setProperty 51 7=3"], "DPMS is property 7 here, after two others")
        XCTAssertEqual(sys.dpms[51], 3)
        XCTAssertTrue(d.isScreenOff)
        XCTAssertFalse(d.canPresent)
        XCTAssertNil(d.nextWakeTime)
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms), "switching off twice is harmless")
        XCTAssertEqual(sys.callCount("setProperty"), 1)

        sys.clearCalls()
        XCTAssertEqual(d.setScreenPower(true), .switched(.dpms))
        XCTAssertEqual(sys.calls, ["getProperties 51", "setProperty 51 7=0"])
        XCTAssertEqual(sys.dpms[51], 0)
        XCTAssertFalse(d.isScreenOff)
        XCTAssertTrue(d.canPresent)
        XCTAssertTrue(d.wantsFrame, "asks for the current frame")
        try d.present(frame, damage: [])
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=100 conn=[51] mode=1024x768@60"), 1, "the mode is set again on wake")
        let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
        XCTAssertEqual(shown[767 * 1024 + 1023], frame[1023, 767], "the whole frame is shown")
        XCTAssertFalse(d.wantsFrame)
        XCTAssertEqual(d.setScreenPower(true), .unsupported(reason: "the screen of /dev/dri/card0 was not switched off"))
    }

    func testNoFlipsWhileOffAndTheLatestFrameComesBack() throws {
        let (d, frame) = try openShowingFirstFrame()
        try d.present(frame, damage: [frame.bounds])
        completeFlip(d)
        sys.now += 1
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        sys.clearCalls()
        // The loop should not present while blanked, but if it does nothing reaches the card.
        let later = patternFrame(width: 1024, height: 768, generation: 9)
        for _ in 0..<3 {
            XCTAssertNoThrow(try d.present(later, damage: [PixelRect(x: 0, y: 0, width: 16, height: 16)]))
            sys.now += 1
        }
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("pageFlip") || $0.hasPrefix("setCrtc") }, [], "no flips while off")
        XCTAssertFalse(d.backend.flipPending)
        XCTAssertEqual(d.setScreenPower(true), .switched(.dpms))
        try d.present(later, damage: [])
        XCTAssertEqual(sys.callCount("pageFlip"), 0, "a mode set, not a flip, brings the picture back")
        let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
        for (x, y) in [(0, 0), (500, 400), (1023, 767)] { XCTAssertEqual(shown[y * 1024 + x], later[x, y]) }
        // Flipping works again afterwards (no fallback to mode sets per frame).
        sys.now += 1
        try d.present(later, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        XCTAssertTrue(d.backend.flipPending)
    }

    func testAFlipInFlightIsWaitedForBeforeBlanking() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.flipDuration = 0.005
        try d.present(frame, damage: [frame.bounds])
        XCTAssertTrue(d.backend.flipPending)
        sys.clearCalls()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        XCTAssertEqual(sys.calls, ["poll 10", "handleEvents", "getProperties 51", "setProperty 51 7=3"])
        XCTAssertFalse(d.backend.flipPending)
        XCTAssertEqual(d.flipsCompleted, 1)
    }

    func testNoDPMSPropertyMeansUnsupportedAndDrawingGoesOn() throws {
        sys.dpmsPropertyID = nil
        let (d, frame) = try openShowingFirstFrame()
        XCTAssertEqual(d.setScreenPower(false), .unsupported(reason: "connector HDMI-A-1 has no DPMS property"))
        XCTAssertFalse(d.isScreenOff)
        XCTAssertTrue(d.canPresent, "ready for the caller's black frame")
        try d.present(Canvas(width: 1024, height: 768), damage: [frame.bounds])
        XCTAssertEqual(sys.callCount("pageFlip"), 1)
        completeFlip(d)
        d.close()
        XCTAssertEqual(sys.callCount("setProperty"), 0, "DPMS untouched on close")
    }

    func testFailingIoctlsMeanUnsupported() throws {
        let (d, _) = try openShowingFirstFrame()
        sys.setPropertyErrno = EINVAL
        guard case .unsupported(let reason) = d.setScreenPower(false) else { return XCTFail("switched although the ioctl failed") }
        XCTAssertTrue(reason.hasPrefix("setting DPMS Off on HDMI-A-1 failed: drmModeConnectorSetProperty: "), reason)
        XCTAssertFalse(d.isScreenOff)
        XCTAssertTrue(d.canPresent)

        sys.setPropertyErrno = nil
        sys.propertiesErrno = EIO
        guard case .unsupported(let reason2) = d.setScreenPower(false) else { return XCTFail("switched although reading failed") }
        XCTAssertTrue(reason2.hasPrefix("reading the properties of connector HDMI-A-1 failed"), reason2)
        XCTAssertTrue(d.canPresent)
    }

    func testWakeStillRedrawsWhenDPMSOnFails() throws {
        let (d, frame) = try openShowingFirstFrame()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        sys.setPropertyErrno = EIO
        guard case .unsupported(let reason) = d.setScreenPower(true) else { return XCTFail("DPMS On cannot have worked") }
        XCTAssertTrue(reason.hasSuffix("; the mode set turns the screen on"), reason)
        XCTAssertTrue(d.canPresent)
        try d.present(frame, damage: [])
        XCTAssertEqual(sys.dpms[51], 0, "the mode set switched the connector on")
    }

    func testHotplugWhileOffSetsTheNewModeOnlyOnWake() throws {
        let (d, _) = try openShowingFirstFrame()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", connected: false, modes: [])
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [DRMMode(width: 800, height: 600, refresh: 60, preferred: true)])
        hotplug.pending = true
        sys.clearCalls()
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        XCTAssertEqual(d.size.width, 800)
        XCTAssertFalse(d.canPresent, "still off after the new screen appeared")
        let small = patternFrame(width: 800, height: 600, generation: 3)
        try d.present(small, damage: [small.bounds])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("pageFlip") || $0.hasPrefix("setCrtc") }, [])

        XCTAssertEqual(d.setScreenPower(true), .switched(.dpms))
        try d.present(small, damage: [])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("setCrtc 41 fb=") && $0.hasSuffix("conn=[51] mode=800x600@60") }.count, 1,
                       "\(sys.calls)")
        XCTAssertEqual(sys.dpms[51], 0)
    }

    func testReleaseWhileOffHandsOverAScreenThatIsOnAndReacquireSwitchesItOffAgain() throws {
        let (d, frame) = try openShowingFirstFrame()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        sys.clearCalls()
        d.release()
        XCTAssertEqual(sys.calls, ["getProperties 51", "setProperty 51 7=0", "dropMaster"])
        // The other program's mode set (the fake turns DPMS On for it as the kernel does).
        sys.dpms[51] = 0
        sys.clearCalls()
        d.reacquire()
        XCTAssertEqual(sys.dpms[51], 3, "off again: the kiosk is still blanked")
        XCTAssertTrue(d.isScreenOff)
        XCTAssertFalse(d.canPresent)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("pageFlip") || $0.hasPrefix("setCrtc") }, [])
        XCTAssertEqual(d.setScreenPower(true), .switched(.dpms))
        try d.present(frame, damage: [])
        XCTAssertEqual(sys.callCount("setCrtc"), 1)
    }

    func testBlankingWithoutMasterIsUnsupportedSoTheBlackFrameWaitsForTheDisplay() throws {
        let (d, _) = try openShowingFirstFrame()
        d.release()
        XCTAssertEqual(d.setScreenPower(false), .unsupported(reason: "/dev/dri/card0 is not DRM master now; cannot set DPMS"))
        XCTAssertEqual(sys.callCount("setProperty"), 0)
    }

    func testCloseSwitchesDPMSBackOnBeforeRestoringTheConsole() throws {
        let (d, _) = try openShowingFirstFrame()
        XCTAssertEqual(d.setScreenPower(false), .switched(.dpms))
        sys.clearCalls()
        d.close()
        XCTAssertEqual(Array(sys.calls.prefix(3)), ["getProperties 51", "setProperty 51 7=0", "setCrtc 41 fb=7 conn=[51] mode=1024x768@60"])
        XCTAssertEqual(sys.dpms[51], 0)
    }
}
