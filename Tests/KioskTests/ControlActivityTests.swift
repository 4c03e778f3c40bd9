import CarouselCore
import KioskConfig
import XCTest
@testable import Kiosk

/// Control commands that move the carousel are activity, as a touch is; asking for `state` or a
/// screenshot is not (a monitor polling the kiosk must not keep it from going idle).
final class ControlActivityTests: XCTestCase {
    private final class Effects: ControlEffects {
        func reload(reason: String) -> Bool { true }
        func writeScreenshot(to path: String) throws {}
        var screenSize: (width: Int, height: Int) { (640, 480) }
        var fps: Double { 0 }
        var foregroundActive: Bool { false }
        var blanked: Bool { false }
    }

    private func behavior() throws -> KioskBehavior {
        var text = "[idle]\nattract_after = 10\nblank_after = 20\n"
        for i in 0..<6 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        let config = try ConfigLoader.parse(text, file: "test.toml")
        let session = CarouselSession(config: config, width: 640, height: 480)
        return KioskBehavior(session: session, log: try EventLog(path: nil), now: 0,
                             performAction: KioskBehavior.simulatedAction)
    }

    private func advance(_ b: KioskBehavior, to t: Double) {
        while let due = b.idle.nextDeadline, due <= t { b.updateIdle(now: due) }
        b.tick(now: t)
    }

    func testScrollToWakesABlankedScreenAndRestartsTheIdleTimers() throws {
        let b = try behavior()
        let effects = Effects()
        advance(b, to: 25)
        XCTAssertTrue(b.blanked, "blanked after 20 s without activity")
        XCTAssertEqual(ControlCommandHandler.handle(.scrollTo(index: 3, duration: 0), behavior: b, now: 25, effects: effects), .ok)
        XCTAssertFalse(b.blanked, "the command woke the screen")
        advance(b, to: 26)
        XCTAssertEqual(b.session.engine.currentIndex, 3, "and was carried out, not swallowed")
        advance(b, to: 34)
        XCTAssertEqual(b.idle.phase, .active, "the idle timers count from the command: no attract 9 s later")
        advance(b, to: 36)
        XCTAssertEqual(b.idle.phase, .attract, "attract 10 s after the command")
    }

    func testStateAndScreenshotAreNotActivity() throws {
        let b = try behavior()
        let effects = Effects()
        for t in stride(from: 1.0, through: 19, by: 1) {
            advance(b, to: t)
            _ = ControlCommandHandler.handle(.state, behavior: b, now: t, effects: effects)
            _ = ControlCommandHandler.handle(.screenshot(path: "/tmp/x.png"), behavior: b, now: t, effects: effects)
        }
        advance(b, to: 21)
        XCTAssertTrue(b.blanked, "polling state every second did not keep the kiosk awake")
    }

    func testSelectAndScrollByAreActivity() throws {
        let b = try behavior()
        let effects = Effects()
        advance(b, to: 9)
        _ = ControlCommandHandler.handle(.scrollBy(items: 1, duration: 0), behavior: b, now: 9, effects: effects)
        advance(b, to: 18)
        _ = ControlCommandHandler.handle(.select(index: nil), behavior: b, now: 18, effects: effects)
        advance(b, to: 27)
        XCTAssertEqual(b.idle.phase, .active, "each command restarted the idle timers")
    }
}
