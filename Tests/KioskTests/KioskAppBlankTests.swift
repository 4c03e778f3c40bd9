import CarouselCore
import Display
import Foundation
import KioskConfig
import Logging
import Raster
import XCTest
@testable import Kiosk

/// A display backend for the app's tests: switches its screen off when `hasPowerControl`, keeps
/// the contract of `setScreenPower` (nothing presentable while off, a full frame asked for on
/// wake) and remembers what the last presented frame looked like.
final class PowerRecordingDisplay: DisplayBackend {
    let size: (width: Int, height: Int) = (320, 240)
    let refreshRate = 60.0
    var pollDescriptors: [Int32] { [] }
    let hasPowerControl: Bool
    private(set) var powerCalls: [Bool] = []
    /// Power switches, releases and reacquires in order.
    private(set) var calls: [String] = []
    private(set) var isOff = false
    private(set) var wantsFrame = false
    private(set) var presented = 0
    /// The last presented frame was black everywhere.
    private(set) var lastWasBlack = false
    /// Cannot take a frame now (a flip in flight).
    var busy = false
    var canPresent: Bool { !isOff && !busy }
    private(set) var frameSequence: UInt64 = 0
    var onFrameShown: ((FrameShown) -> Void)?

    init(hasPowerControl: Bool) { self.hasPowerControl = hasPowerControl }

    func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        powerCalls.append(on)
        calls.append(on ? "on" : "off")
        guard hasPowerControl else { return .unsupported(reason: "test display without DPMS") }
        isOff = !on
        if on { wantsFrame = true }
        return .switched(.dpms)
    }

    func present(_ frame: Canvas, damage: [PixelRect]) throws {
        XCTAssertFalse(isOff, "presented while the screen is off")
        presented += 1
        frameSequence += 1
        wantsFrame = false
        lastWasBlack = true
        for y in 0..<frame.height { for x in 0..<frame.width where frame[x, y] & 0xFF_FFFF != 0 { lastWasBlack = false; return } }
    }

    func handleReadable(_ fd: Int32) -> Bool { false }
    func release() { calls.append("release") }
    func reacquire() { calls.append("reacquire") }
    func close() {}
}

/// `[idle] blank_after` in the app: the display's power control when it has one, a black frame
/// when not; the first touch after blanking only wakes.
final class KioskAppBlankTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("blank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func makeApp(_ display: PowerRecordingDisplay) throws -> (KioskApp, EventLog) {
        let path = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [120, 90]\n[idle]\nblank_after = 10\n"
        for i in 0..<5 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\naction = { emit = \"picked-\(i)\" }\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let log = try EventLog(path: nil)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: display, inputs: [],
                               log: log, logger: Logger(label: "test"))
        return (app, log)
    }

    /// One pass of the loop before it sleeps (draws when due; this display has no frame-rate cap).
    func loopPass(_ app: KioskApp) {
        _ = app.beforeWait()
    }

    /// A tap on the centre of the screen (where the current card is).
    func tap(_ app: KioskApp, at t: Double) {
        app.behavior.input(.touchDown(slot: 0, x: 160, y: 120), now: t)
        app.behavior.input(.touchUp(slot: 0), now: t + 0.05)
    }

    func events(_ log: EventLog) -> [String] {
        log.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    func testBlankSwitchesTheScreenOffAndTheWakingTouchDoesNotSelect() throws {
        let display = PowerRecordingDisplay(hasPowerControl: true)
        let (app, log) = try makeApp(display)
        loopPass(app)
        XCTAssertEqual(display.presented, 1, "the carousel is drawn")
        app.behavior.updateIdle(now: 10.5)
        XCTAssertEqual(display.powerCalls, [false])
        XCTAssertTrue(display.isOff)
        XCTAssertEqual(app.screenPowerMethod, .dpms)
        loopPass(app)
        XCTAssertEqual(display.presented, 1, "nothing drawn while the screen is off (no black frame either)")

        tap(app, at: 12)
        XCTAssertEqual(display.powerCalls, [false, true], "the touch switched the screen on")
        XCTAssertNil(app.screenPowerMethod)
        XCTAssertFalse(events(log).contains("selected"), "the waking touch does not select: \(events(log))")
        loopPass(app)
        XCTAssertEqual(display.presented, 2)
        XCTAssertFalse(display.lastWasBlack, "the carousel is back")

        // The same tap now selects: the check above could fail.
        tap(app, at: 13)
        XCTAssertTrue(events(log).contains("selected"), "\(events(log))")
        XCTAssertEqual(Array(events(log).filter { $0.hasPrefix("screen_") }), ["screen_blanked", "screen_woke"])
    }

    func testWithoutPowerControlTheBlankIsABlackFrame() throws {
        let display = PowerRecordingDisplay(hasPowerControl: false)
        let (app, log) = try makeApp(display)
        loopPass(app)
        XCTAssertFalse(display.lastWasBlack)
        app.behavior.updateIdle(now: 10.5)
        XCTAssertEqual(display.powerCalls, [false], "power control was tried first")
        XCTAssertNil(app.screenPowerMethod)
        XCTAssertEqual(display.presented, 2)
        XCTAssertTrue(display.lastWasBlack, "a black frame instead")
        loopPass(app)
        XCTAssertEqual(display.presented, 2, "the carousel is not drawn while blanked")

        tap(app, at: 12)
        XCTAssertEqual(display.powerCalls, [false], "nothing to switch on")
        XCTAssertFalse(events(log).contains("selected"))
        loopPass(app)
        XCTAssertEqual(display.presented, 3)
        XCTAssertFalse(display.lastWasBlack, "the carousel is back")
    }

    func testABlackFrameTheDisplayCouldNotTakeIsShownWhenItCan() throws {
        let display = PowerRecordingDisplay(hasPowerControl: false)
        let (app, _) = try makeApp(display)
        loopPass(app)
        display.busy = true
        app.behavior.updateIdle(now: 10.5)
        XCTAssertEqual(display.presented, 1, "the display could not take the black frame yet")
        XCTAssertTrue(app.blackFramePending)
        display.busy = false
        loopPass(app)
        XCTAssertEqual(display.presented, 2)
        XCTAssertTrue(display.lastWasBlack, "the black frame went up as soon as the display could take it")
        XCTAssertFalse(app.blackFramePending)
    }

    func testAForegroundProgramStartedWhileBlankedGetsAScreenThatIsOn() throws {
        let display = PowerRecordingDisplay(hasPowerControl: true)
        let (app, log) = try makeApp(display)
        loopPass(app)
        app.behavior.updateIdle(now: 10.5)
        // A control-socket `select` of an item whose program runs in the foreground.
        try app.actionRunnerWillStartForeground(app.actions)
        XCTAssertEqual(display.calls, ["off", "on", "release"], "switched on before the screen is handed over")
        XCTAssertFalse(app.behavior.blanked)
        app.actionRunnerDidEndForeground(app.actions)
        XCTAssertEqual(display.calls.last, "reacquire")
        loopPass(app)
        XCTAssertFalse(display.lastWasBlack, "the carousel is drawn again")
        XCTAssertEqual(events(log).filter { $0.hasPrefix("screen_") }, ["screen_blanked", "screen_woke"])
    }
}
