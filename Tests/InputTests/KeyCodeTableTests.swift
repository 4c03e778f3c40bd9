import CEvdev
import LinuxSystem
import XCTest

/// `LinuxKeyCodes` (generated from linux/input-event-codes.h by scripts/make-key-codes.sh)
/// replaced libevdev's name tables for key names; it must agree with them wherever libevdev
/// knows a name (the header may be newer than libevdev and know more).
final class KeyCodeTableTests: XCTestCase {
    func testEveryNameLibevdevGivesIsTheTables() {
        var compared = 0
        for code in 0...Int(LinuxKeyCodes.maxCode) {
            guard let p = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) else { continue }
            let name = String(cString: p)
            XCTAssertEqual(LinuxKeyCodes.name(of: UInt16(code)), name, "code \(code)")
            XCTAssertEqual(LinuxKeyCodes.code(of: name), UInt16(code), name)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 500)
    }

    func testEveryTableNameLibevdevKnowsHasTheSameCode() {
        for name in LinuxKeyCodes.allNames {
            let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
            if code >= 0 { XCTAssertEqual(LinuxKeyCodes.code(of: name), UInt16(code), name) }
        }
    }

    func testNumbersAndCase() {
        XCTAssertEqual(LinuxKeyCodes.code(of: " key_enter "), 28)
        XCTAssertEqual(LinuxKeyCodes.code(of: "767"), 767)
        XCTAssertNil(LinuxKeyCodes.code(of: "768"))
        XCTAssertNil(LinuxKeyCodes.code(of: "-1"))
        XCTAssertNil(LinuxKeyCodes.code(of: ""))
        XCTAssertNil(LinuxKeyCodes.code(of: "KEY_CNT"), "not a key")
        XCTAssertEqual(LinuxKeyCodes.name(of: 0x110), "BTN_LEFT")
        XCTAssertEqual(LinuxKeyCodes.name(of: 0x2ff), "KEY_MAX")
    }
}
