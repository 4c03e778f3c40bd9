import CarouselCore
import Raster
import XCTest
@testable import Display

final class FBDevDisplayTests: XCTestCase {
    var sys: FakeDisplaySystem!
    override func setUp() { sys = FakeDisplaySystem() }

    /// An 8x4 32 bpp framebuffer with two pages, showing a frame of one colour.
    func openShowing(_ colour: UInt32) throws -> (FBDevDisplay, Canvas) {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        let frame = Canvas(width: 8, height: 4)
        frame.fill(colour)
        try d.present(frame, damage: [frame.bounds])
        sys.now += 1
        return (d, frame)
    }

    func testPanningDoubleBufferAt32bpp() throws {
        sys.installFramebuffer(width: 64, height: 32, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        XCTAssertTrue(d.pans)
        XCTAssertEqual(d.format, .xrgb8888)
        XCTAssertTrue(sys.consoleGraphics, "the console stops drawing over the picture")
        let frame = patternFrame(width: 64, height: 32, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.fbVar.yoffset, 32, "the hidden page is shown")
        let mem = sys.fbMemory!.assumingMemoryBound(to: UInt32.self)
        XCTAssertEqual(mem[32 * 64 + 5], frame[5, 0])
        sys.now += 1
        frame[1, 1] = 0x1234
        try d.present(frame, damage: [PixelRect(x: 1, y: 1, width: 1, height: 1)])
        XCTAssertEqual(sys.fbVar.yoffset, 0)
        // Page 0 got the whole frame (its history started full) plus the new pixel.
        XCTAssertEqual(mem[1 * 64 + 1], 0x1234)
        XCTAssertEqual(mem[31 * 64 + 63], frame[63, 31])
        XCTAssertEqual(sys.callCount("vsync"), 1, "probed once; panning waits for vsync itself")
    }

    /// `render_scale` 0.5 on fbdev, 16 bpp, rotation 180: the frame is half the size; each frame
    /// pixel fills 2×2 panel pixels, turned and converted to RGB565.
    func testRenderScaleDoublesIntoTheFramebuffer() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 16, pages: 1, panStep: 0)
        let d = try FBDevDisplay(options: DisplayOptions(rotation: .upsideDown, renderScale: 0.5), system: sys)
        XCTAssertTrue(d.size == (4, 2))
        XCTAssertTrue(d.fullSize == (8, 4))
        let frame = Canvas(width: 4, height: 2)
        frame.fill(0xFF00_FF00)
        frame[0, 0] = 0xFFFF_0000
        try d.present(frame, damage: [frame.bounds])
        let mem = sys.fbMemory!.assumingMemoryBound(to: UInt16.self)
        for (x, y) in [(7, 3), (6, 3), (7, 2), (6, 2)] { XCTAssertEqual(mem[y * 8 + x], 0xF800, "\(x),\(y)") }
        XCTAssertEqual(mem[3 * 8 + 5], 0x07E0)
        XCTAssertEqual(mem[1 * 8 + 7], 0x07E0)
        XCTAssertTrue(d.setRenderScale(1))
        XCTAssertTrue(d.size == (8, 4))
    }

    func testAsksForAVirtualHeightOfTwoScreens() throws {
        sys.installFramebuffer(width: 32, height: 16, bpp: 32, pages: 1, growable: true)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        XCTAssertTrue(d.pans)
        XCTAssertEqual(sys.callCount("fbput yres_virtual=32"), 1)
        d.close()
        XCTAssertEqual(sys.fbVar.yres_virtual, 16, "the original virtual size is put back")
    }

    func testSingleBufferWaitsForVSyncAndConvertsTo565() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 16, pages: 1, panStep: 0)
        let d = try FBDevDisplay(options: DisplayOptions(rotation: .upsideDown), system: sys)
        XCTAssertFalse(d.pans)
        XCTAssertEqual(d.format, .rgb565)
        let frame = Canvas(width: 8, height: 4)
        frame.fill(0xFF00_FF00)
        frame[0, 0] = 0xFFFF_0000
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.callCount("vsync"), 2, "probe, then before writing")
        let mem = sys.fbMemory!.assumingMemoryBound(to: UInt16.self)
        XCTAssertEqual(mem[3 * 8 + 7], 0xF800, "rotated 180°: logical top-left at the bottom-right")
        XCTAssertEqual(mem[0], 0x07E0)
    }

    func testRefreshCap() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        XCTAssertEqual(d.refreshRate, 60, "no timings: 60 Hz")
        let frame = Canvas(width: 8, height: 4)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertFalse(d.canPresent)
        XCTAssertEqual(try XCTUnwrap(d.nextWakeTime), sys.now + 1.0 / 60, accuracy: 1e-9)
        sys.now += 1.0 / 60
        XCTAssertTrue(d.canPresent)
    }

    func testFramesAreNumberedAndReportedWhenWritten() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        var shown: [FrameShown] = []
        d.onFrameShown = { shown.append($0) }
        let frame = Canvas(width: 8, height: 4)
        try d.present(frame, damage: [frame.bounds])
        try d.present(frame, damage: [frame.bounds])  // too early: capped, not shown, no number
        XCTAssertEqual(d.frameSequence, 1)
        XCTAssertEqual(shown, [FrameShown(sequence: 1, time: sys.now, timing: .submitted)])
    }

    func testCloseRestoresTheConsolePicture() throws {
        let (d, frame) = try openShowing(0xFF11_2233)
        try d.present(frame, damage: [frame.bounds])
        d.close()
        let bytes = sys.fbMemory!.assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual(bytes[0], 0xAB, "the console's page holds its old picture again")
        XCTAssertEqual(sys.fbVar.yoffset, 0)
        XCTAssertFalse(sys.consoleGraphics, "text mode again")
        XCTAssertEqual(sys.callCount("close 20"), 1)
    }

    func testUnsupportedDepthAndMissingDevice() {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 1)
        sys.fbVar.bits_per_pixel = 24
        XCTAssertThrowsError(try FBDevDisplay(options: DisplayOptions(), system: sys)) { e in
            XCTAssertTrue((e as! DisplayError).description.contains("fbset -depth 32"))
        }
        XCTAssertEqual(sys.callCount("close 20"), 1)
        XCTAssertThrowsError(try FBDevDisplay(options: DisplayOptions(device: "/dev/fb7"), system: FakeDisplaySystem())) { e in
            XCTAssertEqual((e as! DisplayError).kind, .noDevice)
        }
    }

    func testReleaseStopsDrawingAndReacquireAsksForAFrame() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        let frame = Canvas(width: 8, height: 4)
        try d.present(frame, damage: [frame.bounds])
        d.release()
        XCTAssertFalse(d.canPresent)
        XCTAssertFalse(sys.consoleGraphics)
        d.reacquire()
        XCTAssertTrue(d.wantsFrame)
        XCTAssertTrue(sys.consoleGraphics)
    }

    // MARK: screen power

    func testBlankingUsesFBIOBLANKAndWritesNothingWhileBlanked() throws {
        let (d, _) = try openShowing(0xFF11_2233)
        XCTAssertEqual(d.setScreenPower(false), .switched(.fbBlank))
        XCTAssertTrue(sys.fbBlanked)
        XCTAssertFalse(d.canPresent)
        XCTAssertNil(d.nextWakeTime)
        sys.clearCalls()
        let later = Canvas(width: 8, height: 4)
        later.fill(0xFF44_5566)
        try d.present(later, damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        XCTAssertEqual(sys.calls, [], "no pan, no vsync while blanked")
        let mem = sys.fbMemory!.assumingMemoryBound(to: UInt32.self)
        XCTAssertNotEqual(mem[0], 0xFF44_5566)

        XCTAssertEqual(d.setScreenPower(true), .switched(.fbBlank))
        XCTAssertFalse(sys.fbBlanked)
        XCTAssertTrue(d.wantsFrame)
        try d.present(later, damage: [])
        let page = Int(sys.fbVar.yoffset) * 8
        XCTAssertEqual(mem[page + 3 * 8 + 7] & 0xFF_FFFF, 0x44_5566, "the whole frame is written on wake")
    }

    func testNoFBIOBLANKMeansUnsupported() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        sys.fbBlankErrno = EINVAL
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        guard case .unsupported(let reason) = d.setScreenPower(false) else { return XCTFail("switched although FBIOBLANK failed") }
        XCTAssertTrue(reason.contains("FBIOBLANK"), reason)
        XCTAssertTrue(d.canPresent, "ready for the caller's black frame")
    }

    func testCloseUnblanks() throws {
        sys.installFramebuffer(width: 8, height: 4, bpp: 32, pages: 2)
        let d = try FBDevDisplay(options: DisplayOptions(), system: sys)
        XCTAssertEqual(d.setScreenPower(false), .switched(.fbBlank))
        d.close()
        XCTAssertFalse(sys.fbBlanked)
    }

    func testHeadlessHasNoPowerControl() {
        XCTAssertEqual(HeadlessDisplay(width: 4, height: 4).setScreenPower(false),
                       .unsupported(reason: "HeadlessDisplay has no screen power control"))
    }
}
