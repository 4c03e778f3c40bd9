import Foundation
import XCTest
@testable import KioskConfig

/// `Whitespace`, `isBlank` and `trimmingWhitespace()` answer as Foundation's
/// `CharacterSet.whitespaces` and `trimmingCharacters(in:)` do, which they replace on the
/// config's start-up path.
final class WhitespaceTests: XCTestCase {
    func testEveryScalarAsFoundationSaysIt() {
        let foundation = CharacterSet.whitespaces
        var differ: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Whitespace.contains(scalar) != foundation.contains(scalar) {
                differ.append(String(format: "U+%04X", value))
            }
        }
        XCTAssertEqual(differ, [], "scalars where Whitespace and CharacterSet.whitespaces differ")
    }

    func testBlankAndTrimmedAsFoundation() {
        let samples = [
            "", " ", "\t", "  \t ", "\n", " \n ", "\u{00A0}", "\u{3000}x\u{3000}", "\u{200B}", "\u{FEFF}",
            "a", " a ", "\ta b\t", "\u{2003}Grüße\u{2009}", "e\u{0301} ", " \u{0301}", "x\r\n", "\u{1680}",
            "👩‍👩‍👧 ", "\u{202F}22:00\u{205F}",
        ]
        for s in samples {
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            XCTAssertEqual(s.isBlank, trimmed.isEmpty, "isBlank of \(s.debugDescription)")
            XCTAssertEqual(s.trimmingWhitespace(), trimmed, "trimmed \(s.debugDescription)")
            let sub = Substring(s)
            XCTAssertEqual(sub.trimmingWhitespace(), sub.trimmingCharacters(in: .whitespaces), "trimmed substring \(s.debugDescription)")
        }
    }

    /// The config's checks that use them: a string of spaces is still "empty", a time range
    /// still reads with spaces around its dash.
    func testConfigChecksThatUseThem() throws {
        let fixture = ConfigFixture()
        XCTAssertEqual(fixture.report("[theme.card]\nfont = \"\\u3000\\t \"\n"), ["2:8: 'font' must not be empty"])
        let config = try fixture.load("[update]\nwindow = \" 22:00 - 06:00\\t\"\n")
        XCTAssertNotNil(config.update.window)
    }
}
