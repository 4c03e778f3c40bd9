import CarouselCore
import Raster
import XCTest
@testable import Display

/// A frame whose every pixel encodes its position and a generation, so a buffer can be checked
/// pixel by pixel against the frame it should show.
func patternFrame(width: Int, height: Int, generation: UInt32) -> Canvas {
    let c = Canvas(width: width, height: height)
    for y in 0..<height { for x in 0..<width { c[x, y] = (generation << 24) | UInt32(y << 12) | UInt32(x) } }
    return c
}

final class DRMDisplayTests: XCTestCase {
    var sys: FakeDisplaySystem!
    var hotplug: FakeHotplug!

    override func setUp() {
        sys = FakeDisplaySystem()
        hotplug = FakeHotplug()
    }

    func open(_ options: DisplayOptions = DisplayOptions()) throws -> DRMDisplay {
        try DRMDisplay(options: options, system: sys, hotplug: hotplug)
    }

    /// Opens the display, shows a first full frame (the mode set) and lets a second pass.
    func openShowingFirstFrame() throws -> (DRMDisplay, Canvas) {
        let d = try open()
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        sys.now += 1
        return (d, frame)
    }

    /// Completes the flip in flight (if any) through the event path the main loop uses.
    func completeFlip(_ d: DRMDisplay) {
        if let f = sys.pendingFlips.first { sys.now = max(sys.now, f.at) }
        XCTAssertFalse(d.handleReadable(sys.drmFD))
    }

    // MARK: probing and errors

    func testOpensFirstConnectedConnectorPreferredModeAndSavesCrtc() throws {
        sys = FakeDisplaySystem(connectors: [
            FakeDisplaySystem.connector(id: 50, name: "DP-1", connected: false, modes: []),
            FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [DRMMode(width: 1920, height: 1080, refresh: 60),
                                                                         DRMMode(width: 1280, height: 720, refresh: 60, preferred: true)]),
        ])
        let d = try open()
        XCTAssertEqual(d.connectorName, "HDMI-A-1")
        XCTAssertEqual(d.size.width, 1280); XCTAssertEqual(d.size.height, 720)
        XCTAssertEqual(d.backend.buffers.count, 2)
        XCTAssertEqual(sys.callCount("createDumb 1280x720"), 2)
        XCTAssertEqual(sys.callCount("setCrtc"), 0, "no mode set before the first frame")
        XCTAssertEqual(d.pollDescriptors, [sys.drmFD, hotplug.fd])
        XCTAssertTrue(d.canPresent)
        XCTAssertTrue(d.wantsFrame)
    }

    func testNamedConnectorAndModeWithRefresh() throws {
        sys = FakeDisplaySystem(connectors: [
            FakeDisplaySystem.connector(id: 50, name: "DP-1", modes: [DRMMode(width: 1024, height: 768, refresh: 60, preferred: true)]),
            FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [DRMMode(width: 1920, height: 1080, refresh: 60, preferred: true),
                                                                         DRMMode(width: 1280, height: 720, refresh: 50),
                                                                         DRMMode(width: 1280, height: 720, refresh: 60)]),
        ])
        let d = try open(DisplayOptions(connector: "HDMI-A-1", mode: "1280x720@50", buffers: 3))
        XCTAssertEqual(d.connectorName, "HDMI-A-1")
        XCTAssertEqual(d.currentMode?.description, "1280x720@50")
        XCTAssertEqual(d.backend.buffers.count, 3)
    }

    func testUnavailableModeListsTheAvailableOnes() {
        XCTAssertThrowsError(try open(DisplayOptions(mode: "1920x1080@60"))) { e in
            let err = e as! DisplayError
            XCTAssertEqual(err.kind, .unavailableMode)
            XCTAssertTrue(err.description.contains("1024x768@60*, 800x600@60"), err.description)
        }
        XCTAssertTrue(sys.openFDs.isEmpty, "the device is closed after a failed open")
        XCTAssertThrowsError(try open(DisplayOptions(mode: "big"))) { e in
            XCTAssertTrue((e as! DisplayError).description.contains("must look like 1920x1080"))
        }
    }

    func testNoDevice() {
        sys.cards = []
        XCTAssertThrowsError(try open()) { e in
            let err = e as! DisplayError
            XCTAssertEqual(err.kind, .noDevice)
            XCTAssertTrue(err.description.contains("fbdev"), err.description)
        }
    }

    func testPermissionDeniedNamesVideoGroupAndSeatManager() {
        sys.openErrors["/dev/dri/card0"] = EACCES
        XCTAssertThrowsError(try open()) { e in
            let err = e as! DisplayError
            XCTAssertEqual(err.kind, .permissionDenied)
            XCTAssertTrue(err.description.contains("'video' group"), err.description)
            XCTAssertTrue(err.description.contains("seat manager"), err.description)
        }
    }

    func testBusyWhenAnotherProgramIsMaster() {
        sys.otherMaster = true
        XCTAssertThrowsError(try open()) { e in
            let err = e as! DisplayError
            XCTAssertEqual(err.kind, .busy)
            XCTAssertTrue(err.description.contains("another program is DRM master"), err.description)
        }
        XCTAssertTrue(sys.openFDs.isEmpty)
    }

    func testNoConnectedConnectorListsConnectors() {
        sys = FakeDisplaySystem(connectors: [FakeDisplaySystem.connector(id: 50, name: "HDMI-A-1", connected: false, modes: [])])
        XCTAssertThrowsError(try open()) { e in
            let err = e as! DisplayError
            XCTAssertEqual(err.kind, .noConnector)
            XCTAssertTrue(err.description.contains("HDMI-A-1 (disconnected)"), err.description)
            XCTAssertTrue(err.description.contains("plug in a screen"), err.description)
        }
        XCTAssertThrowsError(try open(DisplayOptions(connector: "DSI-1"))) { e in
            XCTAssertTrue((e as! DisplayError).description.contains("no connector named DSI-1"))
        }
    }

    // MARK: presenting

    func testFirstFrameSetsCrtcThenPageFlipsOneAtATime() throws {
        let d = try open()
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=101 conn=[51] mode=1024x768@60"), 1)
        XCTAssertEqual(sys.callCount("dirtyFB"), 1, "DirtyFB after the mode set (virtio-gpu needs it)")
        XCTAssertFalse(d.wantsFrame)

        // Flips complete at once here (as in the VM), so the refresh-rate cap applies.
        sys.now += 1
        for generation in 2...6 as ClosedRange<UInt32> {
            XCTAssertTrue(d.canPresent)
            try d.present(patternFrame(width: 1024, height: 768, generation: generation), damage: [PixelRect(x: 0, y: 0, width: 10, height: 10)])
            XCTAssertTrue(d.backend.flipPending)
            XCTAssertFalse(d.canPresent, "one flip in flight")
            // Presenting anyway does not queue a second flip: it is kept for later.
            try d.present(frame, damage: [PixelRect(x: 5, y: 5, width: 1, height: 1)])
            XCTAssertEqual(sys.pendingFlips.count, 1)
            XCTAssertTrue(d.wantsFrame)
            completeFlip(d)
            sys.now += 1
        }
        XCTAssertEqual(sys.callCount("pageFlip"), 5)
        XCTAssertEqual(sys.callCount("setCrtc"), 1, "SetCrtc once")
        XCTAssertEqual(d.flipsCompleted, 5)
    }

    func testRefreshCapWhenFlipsCompleteEarlyButNotWithRealVBlank() throws {
        let (d, frame) = try openShowingFirstFrame()
        try d.present(frame, damage: [frame.bounds])
        let submitted = sys.now
        completeFlip(d)  // completes instantly: no vblank
        XCTAssertFalse(d.canPresent, "capped at 60 Hz")
        let wake = try XCTUnwrap(d.nextWakeTime)
        XCTAssertEqual(wake, submitted + 1.0 / 60, accuracy: 1e-9)
        sys.now = wake
        XCTAssertFalse(d.handleWake())
        XCTAssertTrue(d.canPresent)

        // A driver that completes flips on vblank (a period later) is paced by the events only.
        sys.flipDuration = 1.0 / 60
        try d.present(frame, damage: [frame.bounds])
        completeFlip(d)
        XCTAssertTrue(d.canPresent, "no extra wait after a vblank-paced flip")
        XCTAssertNil(d.nextWakeTime)
    }

    func testEveryBufferReceivesTheDamageSinceItWasLastWritten() throws {
        for count in [2, 3] {
            sys = FakeDisplaySystem()
            let d = try open(DisplayOptions(buffers: count))
            let w = 64, h = 48
            sys.connectors[51]!.modes = [DRMMode(width: w, height: h, refresh: 60, preferred: true)]
            hotplug.pending = true
            XCTAssertTrue(d.handleReadable(hotplug.fd))
            let frame = patternFrame(width: w, height: h, generation: 0)
            try d.present(frame, damage: [frame.bounds])
            // Each present changes a different small area of the frame; afterwards the buffer just
            // shown must equal the frame everywhere.
            var rng = SystemRandomNumberGenerator()
            for g in 1...12 {
                sys.now += 1
                let r = PixelRect(x: Int.random(in: 0..<w - 8, using: &rng), y: Int.random(in: 0..<h - 8, using: &rng), width: 8, height: 8)
                for y in r.y..<r.maxY { for x in r.x..<r.maxX { frame[x, y] = UInt32(g) << 24 | UInt32(y << 12) | UInt32(x) } }
                let before = d.pixelsCopied
                try d.present(frame, damage: [r])
                completeFlip(d)
                let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
                for y in 0..<h { for x in 0..<w where shown[y * w + x] != frame[x, y] {
                    return XCTFail("\(count) buffers, present \(g): pixel \(x),\(y) is stale")
                } }
                // A buffer's first write is the whole frame; after that only the damage of the
                // last `count` presents is copied.
                if g >= count { XCTAssertLessThanOrEqual(d.pixelsCopied - before, 64 * count, "\(count) buffers, present \(g)") }
            }
        }
    }

    // MARK: restore

    func testCloseWaitsForTheFlipAndRestoresTheSavedCrtc() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.flipDuration = 0.01
        try d.present(frame, damage: [frame.bounds])
        sys.clearCalls()
        d.close()
        XCTAssertEqual(sys.calls, [
            "poll 10", "handleEvents",
            "setCrtc 41 fb=7 conn=[51] mode=1024x768@60",
            "rmFB 100", "munmap 3145728", "destroyDumb 1", "rmFB 101", "munmap 3145728", "destroyDumb 2",
            "dropMaster", "close 10",
        ])
        XCTAssertEqual(sys.crtcs[41]?.framebuffer, 7)
        XCTAssertTrue(hotplug.closed)
        XCTAssertEqual(d.restoreSummary, "restored CRTC 41: framebuffer 7, mode 1024x768@60")
        sys.clearCalls()
        d.close()
        XCTAssertEqual(sys.calls, [], "close twice does nothing")
    }

    func testCloseTurnsTheCrtcOffWhenItWasOff() throws {
        sys.crtcs[41] = DRMCrtcState(id: 41, framebuffer: 0, x: 0, y: 0, mode: nil)
        let d = try open()
        try d.present(patternFrame(width: 1024, height: 768, generation: 1), damage: [])
        d.close()
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=0 conn=[] mode=-"), 1)
    }

    // MARK: master

    func testLostMasterStopsDrawingQuietlyAndComesBack() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.otherMaster = true  // a VT switch, a launched program…
        XCTAssertNoThrow(try d.present(frame, damage: [frame.bounds]))
        XCTAssertFalse(d.canPresent)
        XCTAssertNoThrow(try d.present(frame, damage: [frame.bounds]), "presenting without master is not an error")
        XCTAssertEqual(sys.callCount("pageFlip"), 1)
        let retry = try XCTUnwrap(d.nextWakeTime)
        XCTAssertEqual(retry, sys.now + 1, accuracy: 1e-9)
        sys.now = retry
        XCTAssertFalse(d.handleWake())
        XCTAssertEqual(sys.callCount("setMaster"), 2, "one at open, one retry")
        XCTAssertFalse(d.canPresent)

        sys.otherMaster = false
        sys.now = try XCTUnwrap(d.nextWakeTime)
        XCTAssertFalse(d.handleWake(), "same size")
        XCTAssertTrue(d.canPresent)
        XCTAssertTrue(d.wantsFrame, "asks for a redraw")
        sys.clearCalls()
        let next = patternFrame(width: 1024, height: 768, generation: 2)
        try d.present(next, damage: [])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("setCrtc") }.count, 1, "the mode is set again")
        let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
        XCTAssertEqual(shown[767 * 1024 + 1023], next[1023, 767], "the whole frame was copied")
    }

    func testReleaseAndReacquire() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.flipDuration = 0.005
        try d.present(frame, damage: [frame.bounds])
        d.release()
        XCTAssertFalse(sys.isMaster)
        XCTAssertTrue(sys.pendingFlips.isEmpty, "the flip in flight completed before master was dropped")
        XCTAssertFalse(d.canPresent)
        XCTAssertNil(d.nextWakeTime, "no retries while released on purpose")
        sys.clearCalls()
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.calls, [])
        sys.now += 1
        d.reacquire()
        XCTAssertTrue(sys.isMaster)
        XCTAssertTrue(d.wantsFrame)
        XCTAssertTrue(d.canPresent)
        try d.present(frame, damage: [])
        XCTAssertEqual(sys.callCount("setCrtc"), 1)
    }

    // MARK: hotplug

    func testUnplugReplugAndNewPreferredMode() throws {
        let d = try open()
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        try d.present(frame, damage: [frame.bounds])

        hotplug.pending = true
        XCTAssertFalse(d.handleReadable(hotplug.fd), "an event without a change changes nothing")

        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", connected: false, modes: [])
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        XCTAssertEqual(d.size.width, 0)
        XCTAssertFalse(d.canPresent)
        XCTAssertTrue(d.backend.buffers.isEmpty)
        XCTAssertNoThrow(try d.present(frame, damage: [frame.bounds]))

        sys.connectors[51] = FakeDisplaySystem.connector(id: 51, name: "HDMI-A-1", modes: [DRMMode(width: 1280, height: 800, refresh: 60, preferred: true)])
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        XCTAssertEqual(d.size.width, 1280); XCTAssertEqual(d.size.height, 800)
        XCTAssertTrue(d.wantsFrame)
        sys.clearCalls()
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.calls.filter { $0.hasPrefix("setCrtc") || $0.hasPrefix("pageFlip") }, [], "a frame of the old size is not shown")
        let big = patternFrame(width: 1280, height: 800, generation: 2)
        sys.now += 1
        try d.present(big, damage: [])
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=103 conn=[51] mode=1280x800@60"), 1)

        // Same connector, new preferred mode (a different screen plugged in).
        sys.now += 1
        sys.connectors[51]!.modes = [DRMMode(width: 1280, height: 800, refresh: 75, preferred: true)]
        hotplug.pending = true
        XCTAssertFalse(d.handleReadable(hotplug.fd), "same size: no relayout")
        XCTAssertTrue(d.wantsFrame, "but the mode is set again")
        try d.present(big, damage: [])
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=103 conn=[51] mode=1280x800@75"), 1)
    }

    func testRotationSwapsTheLayoutSizeAndRotatesTheCopy() throws {
        let d = try open(DisplayOptions(rotation: .clockwise90))
        XCTAssertEqual(d.size.width, 768); XCTAssertEqual(d.size.height, 1024)
        let frame = patternFrame(width: 768, height: 1024, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
        // Logical (0, 0), the scene's top-left, is at the panel's top-right.
        XCTAssertEqual(shown[0 * 1024 + 1023], frame[0, 0])
        XCTAssertEqual(shown[767 * 1024 + 0], frame[767, 1023])
    }

    /// `render_scale` 0.5 with rotation 90 and 2 buffers: the scene is half the rotated size; after
    /// every damaged present the buffer on screen is the frame doubled and turned, with no stale
    /// pixel; a new scale takes the whole frame again.
    func testRenderScaleDrawsSmallerAndEveryBufferShowsTheEnlargedFrame() throws {
        let d = try open(DisplayOptions(rotation: .clockwise90, renderScale: 0.5))
        XCTAssertTrue(d.size == (384, 512), "\(d.size)")
        XCTAssertTrue(d.fullSize == (768, 1024))
        let frame = patternFrame(width: 384, height: 512, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        var rng = SystemRandomNumberGenerator()
        for g in 2...6 {
            sys.now += 1
            let r = PixelRect(x: Int.random(in: 0..<370, using: &rng), y: Int.random(in: 0..<500, using: &rng), width: 9, height: 7)
            for y in r.y..<r.maxY { for x in r.x..<r.maxX { frame[x, y] = UInt32(g) << 24 | UInt32(y << 12) | UInt32(x) } }
            try d.present(frame, damage: [r])
            completeFlip(d)
            let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
            // Physical (px, py) shows logical (py, 1023 - px), that is frame (py / 2, (1023 - px) / 2).
            for py in stride(from: 0, to: 768, by: 1) { for px in stride(from: 0, to: 1024, by: 1)
                where shown[py * 1024 + px] != frame[py / 2, (1023 - px) / 2] {
                return XCTFail("present \(g): physical \(px),\(py) is stale")
            } }
        }
        XCTAssertTrue(d.setRenderScale(1))
        XCTAssertTrue(d.size == (768, 1024))
        XCTAssertTrue(d.wantsFrame, "the whole frame at the new size")
        XCTAssertFalse(d.setRenderScale(1))
    }

    func testDriverWithoutPageFlipsFallsBackToModeSets() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.pageFlipErrno = EINVAL
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        XCTAssertEqual(sys.callCount("setCrtc"), 2)
        XCTAssertFalse(d.backend.flipPending)
        sys.now += 1
        try d.present(frame, damage: [PixelRect(x: 0, y: 0, width: 4, height: 4)])
        XCTAssertEqual(sys.callCount("pageFlip"), 1, "not tried again")
        XCTAssertEqual(sys.callCount("setCrtc"), 3)
    }

    func testLostFlipEventIsGivenUpAfterATimeout() throws {
        let (d, frame) = try openShowingFirstFrame()
        sys.flipDuration = 1000  // never arrives
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(try XCTUnwrap(d.nextWakeTime), sys.now + DRMBackend.flipTimeout, accuracy: 1e-9)
        sys.now += DRMBackend.flipTimeout
        _ = d.handleWake()
        XCTAssertFalse(d.backend.flipPending)
    }

    /// `health`, for the watchdog: a flip unconfirmed past the timeout is a stall, and stays one
    /// after it is given up on, until a completion arrives; a released display owes nothing.
    func testUnconfirmedFlipsMakeTheDisplayStalledUntilOneCompletes() throws {
        let (d, frame) = try openShowingFirstFrame()
        XCTAssertEqual(d.health, .showing)
        sys.flipDuration = 1000  // the completion is lost
        let submitted = sys.now
        try d.present(frame, damage: [frame.bounds])
        sys.now += DRMBackend.flipTimeout / 2
        XCTAssertEqual(d.health, .showing, "a flip in flight within its time")
        sys.now = submitted + DRMBackend.flipTimeout
        _ = d.handleWake()
        XCTAssertFalse(d.backend.flipPending, "given up on")
        XCTAssertEqual(d.health, .stalled(since: submitted))
        XCTAssertTrue(d.wantsFrame, "asks for a frame: a new flip tells whether flips complete again")
        sys.now += 0.1
        try d.present(frame, damage: [frame.bounds])  // EBUSY: the kernel still has it
        XCTAssertEqual(d.health, .stalled(since: submitted), "still no flip confirmed")
        completeFlip(d)  // the lost completion turns up after all
        XCTAssertEqual(d.health, .showing)
        d.release()
        XCTAssertEqual(d.health, .notShowing)
    }
}

final class DisplayTestFaultTests: XCTestCase {
    func testParsesKindAndFile() throws {
        XCTAssertNil(DisplayTestFault("wedge"))
        XCTAssertNil(DisplayTestFault(""))
        let always = try XCTUnwrap(DisplayTestFault("wedge-flip"))
        XCTAssertTrue(always.isOn(.wedgeFlip))
        let path = "/tmp/kiosk-fault-\(getpid())"
        let gated = try XCTUnwrap(DisplayTestFault("wedge-flip:\(path)"))
        XCTAssertEqual(gated.whilePath, path)
        XCTAssertFalse(gated.isOn(.wedgeFlip), "no file yet")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(gated.isOn(.wedgeFlip))
    }
}
