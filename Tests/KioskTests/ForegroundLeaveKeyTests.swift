import CarouselCore
import Input
import KioskConfig
import LinuxSystem
import Logging
import XCTest
@testable import Kiosk

/// Holding the home key while a foreground program runs says it is to end (EN 301 549 5.1.6.2).
/// The devices are a scripted source here; `Tests/vm/kiosk-exec.sh` holds a real key through
/// uinput and sees the program end and the carousel come back.
final class ForegroundLeaveKeyTests: XCTestCase {
    private func make(hold: Double = 3, keymap: [String: KeyName] = [:]) -> (ForegroundLeaveKey, ScriptedInputSource, () -> [UInt16: KeyName]?) {
        var settings = ActionSettings()
        settings.leaveHold = hold
        let keys = ScriptedInputSource()
        var opened: [UInt16: KeyName]?
        let leave = ForegroundLeaveKey(settings: settings, keymap: keymap, logger: Logger(label: "test")) { codes in
            opened = codes
            return keys
        }
        return (leave, keys, { opened })
    }

    private func code(_ name: String) -> UInt16 { KeyCodeNames.code(of: name)! }

    func testHoldingHomeForTheHoldTimeIsTheDeadlineAndAReleaseCancels() throws {
        let (leave, keys, opened) = make(keymap: ["KEY_F12": .home])
        let reactor = try Reactor(clock: { 0 })
        XCTAssertNil(opened(), "nothing is read before a program runs")
        leave.start(reactor: reactor)
        XCTAssertEqual(opened().map { Set($0.keys) }, [code("KEY_HOME"), code("KEY_F12")], "the standard Home and the keymap's")
        keys.queued = [TimedInputEvent(time: 0, event: .keyDown(.home))]
        leave.read(keys.fd, now: 10)
        XCTAssertEqual(leave.deadline, 13)
        keys.queued = [TimedInputEvent(time: 0, event: .keyDown(.home))]
        leave.read(keys.fd, now: 11)
        XCTAssertEqual(leave.deadline, 13, "a second press (another keyboard's) keeps the first time")
        keys.queued = [TimedInputEvent(time: 0, event: .keyUp(.home))]
        leave.read(keys.fd, now: 12)
        XCTAssertNil(leave.deadline, "let go before 3 s")
        keys.queued = [TimedInputEvent(time: 0, event: .keyDown(.home))]
        leave.read(keys.fd, now: 20)
        XCTAssertEqual(leave.deadline, 23)
        leave.fired()
        XCTAssertNil(leave.deadline, "spent once reached")
        leave.stop()
        XCTAssertFalse(leave.isWatching)
    }

    func testHoldZeroWatchesNothing() throws {
        let (leave, _, opened) = make(hold: 0)
        leave.start(reactor: try Reactor(clock: { 0 }))
        XCTAssertNil(opened())
        XCTAssertFalse(leave.isWatching)
    }

    func testAReloadedKeymapCountsFromTheNextProgram() throws {
        let (leave, _, opened) = make()
        var settings = ActionSettings()
        settings.leaveHold = 5
        leave.update(settings: settings, keymap: ["KEY_HOMEPAGE": .home, "KEY_HOME": .left])
        leave.start(reactor: try Reactor(clock: { 0 }))
        XCTAssertEqual(opened().map { Set($0.keys) }, [code("KEY_HOMEPAGE")], "Home rebound to left is not a way out")
    }
}
