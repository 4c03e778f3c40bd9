import CarouselCore
import Display
import Foundation
import Glibc
import LinuxSystem
import KioskConfig
import Logging
import Raster
import XCTest
@testable import Kiosk

/// The health rules on their own, on given times.
final class ScreenWatchTests: XCTestCase {
    func testDeadlineFollowsTheWatchdogInterval() {
        XCTAssertEqual(ScreenWatch.frameDeadline(watchdogInterval: 2), 2, "WatchdogSec=4")
        XCTAssertEqual(ScreenWatch.frameDeadline(watchdogInterval: 5), 5, "WatchdogSec=10")
        XCTAssertEqual(ScreenWatch.frameDeadline(watchdogInterval: 30), 5, "a long WatchdogSec is capped")
        XCTAssertEqual(ScreenWatch.frameDeadline(watchdogInterval: 0.5), 1.5, "longer than one flip timeout")
    }

    func testIdleWithNothingToDrawStaysHealthy() {
        var w = ScreenWatch(frameDeadline: 2)
        for t in stride(from: 0.0, through: 600, by: 7) {
            XCTAssertNil(w.update(now: t, frameNeeded: false, display: .showing))
        }
        XCTAssertTrue(w.isHealthy)
        XCTAssertNil(w.nextCheck)
    }

    func testAFramePresentedWithinTheDeadlineIsHealthy() {
        var w = ScreenWatch(frameDeadline: 2)
        XCTAssertNil(w.update(now: 10, frameNeeded: true, display: .showing))
        XCTAssertEqual(w.frameNeededSince, 10)
        XCTAssertEqual(w.nextCheck, 12)
        XCTAssertNil(w.update(now: 11.9, frameNeeded: true, display: .showing), "still within 2 s")
        w.framePresented()
        XCTAssertNil(w.update(now: 12.5, frameNeeded: true, display: .showing), "a new frame is owed from now")
        XCTAssertEqual(w.frameNeededSince, 12.5)
        XCTAssertTrue(w.isHealthy)
    }

    func testAnOwedFrameNeverPresentedIsUnhealthyOnceAndRecovers() {
        var w = ScreenWatch(frameDeadline: 2)
        _ = w.update(now: 10, frameNeeded: true, display: .showing)
        XCTAssertEqual(w.update(now: 12, frameNeeded: true, display: .showing), .unhealthy(.frameOverdue(since: 10)))
        XCTAssertFalse(w.isHealthy)
        XCTAssertNil(w.nextCheck)
        XCTAssertNil(w.update(now: 13, frameNeeded: true, display: .showing), "said once")
        XCTAssertEqual(w.problem?.describe(now: 13), "display stalled: a frame has been due for 3.0 s and none was presented")
        w.framePresented()
        XCTAssertEqual(w.update(now: 14, frameNeeded: false, display: .showing), .recovered(.frameOverdue(since: 10)))
        XCTAssertTrue(w.isHealthy)
    }

    func testAStalledDisplayIsUnhealthyWhateverTheLoopThinks() {
        var w = ScreenWatch(frameDeadline: 2)
        XCTAssertEqual(w.update(now: 5, frameNeeded: false, display: .stalled(since: 3.5)),
                       .unhealthy(.presentationStalled(since: 3.5)))
        XCTAssertNil(w.update(now: 6, frameNeeded: true, display: .stalled(since: 3.5)))
        XCTAssertEqual(w.update(now: 9, frameNeeded: true, display: .stalled(since: 3.5)), nil,
                       "the stall is the reason, not the owed frame")
        XCTAssertEqual(w.update(now: 9.5, frameNeeded: false, display: .showing), .recovered(.presentationStalled(since: 3.5)))
    }

    func testAReasonThatChangesIsSaidAgain() {
        var w = ScreenWatch(frameDeadline: 2)
        _ = w.update(now: 0, frameNeeded: true, display: .showing)
        XCTAssertEqual(w.update(now: 2, frameNeeded: true, display: .showing), .unhealthy(.frameOverdue(since: 0)))
        XCTAssertEqual(w.update(now: 3, frameNeeded: true, display: .stalled(since: 2.5)), .unhealthy(.presentationStalled(since: 2.5)))
    }

    func testNotShowingOwesNoFrame() {
        var w = ScreenWatch(frameDeadline: 2)
        _ = w.update(now: 0, frameNeeded: true, display: .showing)
        // Released, master lost, switched off or unplugged: nothing is owed, for however long.
        for t in stride(from: 1.0, through: 100, by: 1) {
            XCTAssertNil(w.update(now: t, frameNeeded: true, display: .notShowing))
        }
        XCTAssertNil(w.frameNeededSince)
        XCTAssertNil(w.update(now: 101, frameNeeded: true, display: .showing), "the deadline starts when it is back")
        XCTAssertEqual(w.frameNeededSince, 101)
    }
}

/// A display whose health, readiness and power the test sets.
final class HealthScriptedDisplay: DisplayBackend {
    let size: (width: Int, height: Int) = (320, 240)
    let refreshRate = 60.0
    var pollDescriptors: [Int32] { [] }
    /// Cannot take a frame (a flip in flight that never completes).
    var busy = false
    var health: DisplayHealth = .showing
    private(set) var wantsFrame = true
    private(set) var presented = 0
    private(set) var frameSequence: UInt64 = 0
    var onFrameShown: ((FrameShown) -> Void)?
    private var released = false
    var canPresent: Bool { !busy && !released }

    func present(_ frame: Canvas, damage: [PixelRect]) throws {
        presented += 1
        frameSequence += 1
        wantsFrame = false
    }

    func handleReadable(_ fd: Int32) -> Bool { false }
    func release() { released = true; health = .notShowing }
    func reacquire() { released = false; health = .showing; wantsFrame = true }
    func close() {}
}

/// The loop pings systemd's watchdog only while the screen is healthy; a still kiosk keeps
/// pinging. Notifications go to a real datagram socket standing in for systemd.
final class KioskAppWatchdogTests: XCTestCase {
    var folder: URL!
    var managerFD: Int32 = -1
    /// The loop's monotonic clock (seconds), set by each pass (`KioskApp`'s injected clock).
    let clock = SteppedClock(99)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if managerFD >= 0 { close(managerFD) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A kiosk on `display` with `WatchdogSec=4` (pings every 2 s, an owed frame may wait 2 s).
    func makeApp(_ display: HealthScriptedDisplay) throws -> KioskApp {
        let path = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [120, 90]\n[idle]\nblank_after = 100\n"
        for i in 0..<5 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let socketPath = folder.appendingPathComponent("notify").path
        managerFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        XCTAssertEqual(UnixSocketAddress.with(socketPath) { bind(managerFD, $0, $1) }, 0)
        let notifier = try SystemdNotifier(socketPath: socketPath, watchdogUSec: 4_000_000)
        return try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: display, inputs: [],
                            log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: notifier,
                            clock: { [clock] in clock.now })
    }

    /// The notifications sent since the last call.
    func received() -> [String] {
        var out: [String] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(managerFD, &buf, buf.count, Int32(MSG_DONTWAIT))
            guard n >= 0 else { return out }
            out.append(String(decoding: buf[0..<n], as: UTF8.self))
        }
    }

    /// One loop pass at `t` (seconds on the loop's monotonic clock): draw if due (the display
    /// paces, and this one never holds a frame back), then the watchdog.
    func pass(_ app: KioskApp, at t: Double) {
        clock.now = t
        _ = app.beforeWait()
    }

    func pings(_ messages: [String]) -> Int { messages.filter { $0 == "WATCHDOG=1" }.count }

    func testAStillKioskKeepsPingingWithoutDrawing() throws {
        let display = HealthScriptedDisplay()
        let app = try makeApp(display)
        pass(app, at: 100)
        XCTAssertEqual(display.presented, 1)
        let first = received()
        XCTAssertTrue(first.contains { $0.hasPrefix("READY=1") }, "\(first)")
        XCTAssertEqual(pings(first), 1)
        var sent = 0
        for i in 1...30 { pass(app, at: 100 + Double(i)); sent += pings(received()) }
        XCTAssertEqual(display.presented, 1, "nothing drawn while still")
        XCTAssertEqual(sent, 15, "one ping per 2 s for 30 s")
        XCTAssertTrue(app.screenWatch.isHealthy)
    }

    func testAWedgedFlipStopsThePingsSaysWhyOnceAndRecovers() throws {
        let display = HealthScriptedDisplay()
        let app = try makeApp(display)
        pass(app, at: 100)
        _ = received()
        // A touch needs a frame; the display took the last one and never confirmed it.
        app.session.apply(.scrollTo(index: 3, duration: 0), now: 1)
        display.busy = true
        display.health = .stalled(since: 101)
        pass(app, at: 102)
        var got = received()
        XCTAssertEqual(pings(got), 0, "no ping while stalled: \(got)")
        XCTAssertEqual(got.filter { $0.hasPrefix("STATUS=display stalled: a page flip") }.count, 1, "\(got)")
        for i in 1...10 { pass(app, at: 102 + Double(i)) }
        got = received()
        XCTAssertEqual(got, [], "no pings, and the status is not repeated")
        XCTAssertEqual(app.serviceWatchdog(now: 113), 1000, "looks again each second")

        display.busy = false
        display.health = .showing
        pass(app, at: 114)
        got = received()
        XCTAssertEqual(got, ["STATUS=showing 5 items", "WATCHDOG=1"])
        XCTAssertEqual(display.presented, 2, "the owed frame went up")
    }

    func testAFrameOwedButNeverPresentedStopsThePings() throws {
        let display = HealthScriptedDisplay()
        let app = try makeApp(display)
        pass(app, at: 100)
        _ = received()
        // The display says all is well but never takes a frame again (a present that never completes).
        display.busy = true
        app.session.apply(.scrollTo(index: 2, duration: 0), now: 1)
        pass(app, at: 101)
        XCTAssertEqual(app.screenWatch.frameNeededSince, 101)
        XCTAssertEqual(app.serviceWatchdog(now: 101), 1000, "wakes at the owed frame's deadline (before the ping at 102)")
        pass(app, at: 102)
        XCTAssertEqual(pings(received()), 1, "within the 2 s deadline: still pinging")
        pass(app, at: 103)
        let got = received()
        XCTAssertEqual(pings(got), 0)
        XCTAssertEqual(got.filter { $0.hasPrefix("STATUS=display stalled: a frame has been due for 2.0 s") }.count, 1, "\(got)")
        for i in 1...10 { pass(app, at: 103 + Double(i)) }
        XCTAssertEqual(received(), [])
    }

    func testNoFrameStatesKeepPinging() throws {
        let display = HealthScriptedDisplay()
        let app = try makeApp(display)
        pass(app, at: 100)
        _ = received()
        // Blanked (no power control here: a black frame went up), then a frame wanted that
        // cannot be shown: the blank owes none.
        app.behavior.updateIdle(now: 101)
        XCTAssertTrue(app.behavior.blanked)
        display.busy = true
        app.session.apply(.scrollTo(index: 2, duration: 0), now: 102)
        for i in 1...10 { pass(app, at: 100 + Double(i)) }
        XCTAssertEqual(pings(received()), 5)
        XCTAssertTrue(app.screenWatch.isHealthy)

        // Awake, but the display is given away (a foreground program, lost DRM master).
        app.behavior.input(.touchDown(slot: 0, x: 160, y: 120), now: 111)
        XCTAssertFalse(app.behavior.blanked)
        display.release()
        for i in 11...20 { pass(app, at: 100 + Double(i)) }
        XCTAssertEqual(pings(received()), 5)
        XCTAssertTrue(app.screenWatch.isHealthy)
        XCTAssertNil(app.screenWatch.frameNeededSince)
    }
}

/// A monotonic clock a test sets by hand.
final class SteppedClock: @unchecked Sendable {
    var now: Double
    init(_ now: Double) { self.now = now }
}
