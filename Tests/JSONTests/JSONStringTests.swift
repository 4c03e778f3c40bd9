import JSON
import XCTest

/// `JSONString.quoted`, the one JSON string encoder (issue 28 §4): RFC 8259 escaping, the bytes
/// the events stream always wrote, and a round trip through `JSONValue.read`.
final class JSONStringTests: XCTestCase {
    func testQuotesAndBackslashesAreEscaped() {
        XCTAssertEqual(JSONString.quoted(""), #""""#)
        XCTAssertEqual(JSONString.quoted(#"say "hi""#), #""say \"hi\"""#)
        XCTAssertEqual(JSONString.quoted(#"C:\dir\"#), #""C:\\dir\\""#)
        XCTAssertEqual(JSONString.quoted(#"\""#), #""\\\"""#)
    }

    func testNewlineReturnAndTabHaveTheirShortForms() {
        XCTAssertEqual(JSONString.quoted("a\nb\rc\td"), #""a\nb\rc\td""#)
    }

    /// Every other control character is `\u00xx` in lower-case hex (backspace and form feed
    /// too: the events stream wrote them so).
    func testOtherControlCharactersAreLowerCaseUnicodeEscapes() {
        for v in UInt32(0)..<0x20 where ![0x0A, 0x0D, 0x09].contains(v) {
            let s = String(Character(Unicode.Scalar(v)!))
            XCTAssertEqual(JSONString.quoted(s), "\"\\u" + hex4(v) + "\"", "U+\(hex4(v))")
        }
        XCTAssertEqual(JSONString.quoted("\u{0}\u{8}\u{C}\u{1B}\u{1F}"), #""\u0000\u0008\u000c\u001b\u001f""#)
    }

    /// Non-ASCII text stays UTF-8, unescaped; so do U+007F and U+2028/U+2029, which JSON allows
    /// as they are (the program's JSON is read by JSON readers, not pasted into JavaScript);
    /// `/` is not escaped.
    func testEverythingElseIsKeptAsItIs() {
        for s in ["é", "日本語", "🙂", "\u{7F}", "\u{80}", "\u{2028}\u{2029}", "a/b", "\u{FEFF}", "\u{10FFFF}"] {
            XCTAssertEqual(Array(JSONString.quoted(s).utf8), [0x22] + Array(s.utf8) + [0x22], s.debugDescription)
        }
    }

    /// Whatever goes in comes back out of the strict reader unchanged.
    func testEveryQuotedStringReadsBack() throws {
        var samples = (UInt32(0)...0x80).map { String(Character(Unicode.Scalar($0)!)) }
        samples += ["", "a\"b\\c\n\r\t\u{0}\u{1F}é🙂\u{2028}", String(repeating: "\\\"", count: 100)]
        // Every string of three of these characters, so each escape meets each neighbour.
        let alphabet = ["a", "\"", "\\", "\n", "\u{1}", "/", "é", "🙂", "\u{2028}", "\u{7F}"]
        for a in alphabet { for b in alphabet { for c in alphabet { samples.append(a + b + c) } } }
        for s in samples {
            XCTAssertEqual(try JSONValue.read(JSONString.quoted(s)), .string(s), s.debugDescription)
        }
    }

    private func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: 4 - h.count) + h
    }
}
