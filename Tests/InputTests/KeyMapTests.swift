import CarouselCore
import XCTest
@testable import Input

final class KeyMapTests: XCTestCase {
    func testKeyCodeNamesComeFromTheKernelTables() {
        XCTAssertEqual(KeyCodeNames.code(of: "KEY_ENTER"), 28)
        XCTAssertEqual(KeyCodeNames.code(of: "key_a"), 30, "names are case-insensitive")
        XCTAssertEqual(KeyCodeNames.code(of: "BTN_LEFT"), 0x110)
        XCTAssertEqual(KeyCodeNames.code(of: "KEY_PAGEDOWN"), 109)
        XCTAssertEqual(KeyCodeNames.code(of: "28"), 28, "a decimal code")
        XCTAssertNil(KeyCodeNames.code(of: "KEY_NOPE"))
        XCTAssertNil(KeyCodeNames.code(of: "REL_DIAL"), "not a key")
        XCTAssertNil(KeyCodeNames.code(of: "99999"))
        XCTAssertEqual(KeyCodeNames.name(of: 28), "KEY_ENTER")
        XCTAssertEqual(KeyCodeNames.code(of: " \tKEY_ENTER  "), 28, "blanks around a name are ignored")
        XCTAssertEqual(KeyCodeNames.code(of: "\t 28 "), 28, "and around a number")
        XCTAssertNil(KeyCodeNames.code(of: "KEY_ ENTER"), "but not inside it")
        XCTAssertNil(KeyCodeNames.code(of: " \t "))
        XCTAssertNil(KeyCodeNames.code(of: ""))
        XCTAssertEqual(KeyCodeNames.code(of: "KEY_Ä"), nil, "a name with a non-ASCII letter is no name")
        XCTAssertEqual(KeyCodeNames.name(of: 256), "BTN_0", "the later of two names for a code (BTN_MISC, BTN_0), as libevdev gives")
        XCTAssertEqual(KeyCodeNames.code(of: "BTN_MISC"), 256)
        XCTAssertEqual(KeyCodeNames.name(of: 760), "760", "a code without a name is its number")
    }

    func testStandardMap() {
        let m = KeyMap.standard
        XCTAssertEqual(m.key(for: 105), .left)     // KEY_LEFT
        XCTAssertEqual(m.key(for: 106), .right)    // KEY_RIGHT
        XCTAssertEqual(m.key(for: 103), .up)
        XCTAssertEqual(m.key(for: 108), .down)
        XCTAssertEqual(m.key(for: 28), .enter)
        XCTAssertEqual(m.key(for: 96), .enter)     // KEY_KPENTER
        XCTAssertEqual(m.key(for: 1), .escape)     // KEY_ESC
        XCTAssertEqual(m.key(for: 102), .home)
        XCTAssertNil(m.key(for: 30))               // KEY_A
    }

    func testConfiguredEntriesAddAndReplace() throws {
        let m = try KeyMap.standard(adding: ["KEY_A": .left, "KEY_D": .right, "KEY_ENTER": .home])
        XCTAssertEqual(m.key(for: 30), .left)
        XCTAssertEqual(m.key(for: 32), .right)
        XCTAssertEqual(m.key(for: 28), .home, "a configured entry replaces the default")
        XCTAssertEqual(m.key(for: 105), .left, "defaults stay")
    }

    func testEveryUnknownNameIsReported() {
        XCTAssertThrowsError(try KeyMap.standard(adding: ["KEY_NOPE": .left, "KEY_A": .right, "FOO": .enter])) { e in
            let text = "\(e)"
            XCTAssertTrue(text.contains("\"KEY_NOPE\"") && text.contains("\"FOO\""), text)
            XCTAssertFalse(text.contains("\"KEY_A\""), text)
        }
    }

    func testStringEntries() throws {
        let m = try KeyMap.standard(addingNames: ["KEY_SPACE": "escape"])
        XCTAssertEqual(m.key(for: 57), .escape)
        XCTAssertThrowsError(try KeyMap.standard(addingNames: ["KEY_A": "jump"])) {
            XCTAssertTrue("\($0)".contains("KEY_A = \"jump\"") && "\($0)".contains("left, right"), "\($0)")
        }
    }
}
