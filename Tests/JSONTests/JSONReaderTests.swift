import JSON
import XCTest

/// The strict JSON reader behind `JSONValue.parse` (control-socket and input-script lines).
final class JSONReaderTests: XCTestCase {
    private func reason(_ text: String) -> String? {
        do { _ = try JSONValue.read(text); return nil } catch { return "\(error)" }
    }

    func testReadsEveryKindOfValue() throws {
        XCTAssertEqual(JSONValue.parse(#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}} "#),
                       .object(["a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null, .string("x")]), "b": .object([:])]))
        XCTAssertEqual(JSONValue.parse("0"), .number(0))
        XCTAssertEqual(JSONValue.parse("-0.0"), .number(-0.0))
        XCTAssertEqual(JSONValue.parse("1E+2"), .number(100))
        XCTAssertEqual(JSONValue.parse("5e-324"), .number(.leastNonzeroMagnitude))
        XCTAssertEqual(JSONValue.parse("[]"), .array([]))
        XCTAssertEqual(JSONValue.parse("\u{FEFF}{\"cmd\":\"state\"}"), .object(["cmd": .string("state")]), "a leading BOM is skipped")
    }

    func testStringEscapes() {
        XCTAssertEqual(JSONValue.parse(#""a\"\\\/\b\f\n\r\t""#), .string("a\"\\/\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(JSONValue.parse(#""\u00e9\u20AC\ud83c\udfa0\u0000""#), .string("é€🎠\u{0}"))
        XCTAssertEqual(JSONValue.parse("\"карусель 🎠\""), .string("карусель 🎠"))
    }

    func testRefusalsSayWhatAndWhere() {
        XCTAssertEqual(reason(#"{"a":1,"a":2}"#), #"duplicate key "a" at byte 8"#)
        XCTAssertEqual(reason("{\"a\":1} x"), "unexpected text after the JSON value at byte 9")
        XCTAssertEqual(reason("1e999"), "number 1e999 is out of range at byte 1 (numbers must lie within ±1.7976931348623157e308)")
        XCTAssertEqual(reason(#"{"t":0,"x":-1e999}"#), "number -1e999 is out of range at byte 12 (numbers must lie within ±1.7976931348623157e308)",
                       "at the number's own place")
        XCTAssertEqual(reason("01"), "a number must not start with 0 at byte 2")
        XCTAssertEqual(reason(#""\ud800""#), "unpaired surrogate in a \\u escape at byte 8")
        XCTAssertEqual(reason(#""\udc00x""#), "unpaired surrogate in a \\u escape at byte 8")
        XCTAssertEqual(reason("\"a\u{1}\""), "control character in a string (escape it) at byte 3")
        XCTAssertEqual(reason(#""\x41""#), "invalid escape at byte 3")
        for bad in ["", " ", "[1,]", "{\"a\":1,}", "{a:1}", "{'a':1}", "NaN", "Infinity", "-", "1.", ".5", "+1", "1e", "tru", "nul",
                    "[1 2]", "{\"a\" 1}", "\"abc", "\"\\u12\"", "\u{FEFF}\u{FEFF}1"] {
            XCTAssertNil(JSONValue.parse(bad), bad.debugDescription)
        }
    }

    /// A word or character where a value belongs is named as it is, with what a value can be
    /// (was "expected null at byte 1" for `not json`).
    func testWhatIsNotAValueIsNamed() {
        let values = "a value is an object {…}, an array […], a \"string\", a number, true, false or null"
        XCTAssertEqual(reason("not json"), "'not' is not a JSON value at byte 1 (\(values))")
        XCTAssertEqual(reason(#"{"cmd":state}"#), "'state' is not a JSON value at byte 8 (\(values))")
        XCTAssertEqual(reason("[nul]"), "'nul' is not a JSON value at byte 2 (\(values))")
        XCTAssertEqual(reason("nullx"), "'nullx' is not a JSON value at byte 1 (\(values))")
        XCTAssertEqual(reason("{\"a\":}"), "'}' is not a JSON value at byte 6 (\(values))")
        XCTAssertEqual(reason("[é]"), "'é' is not a JSON value at byte 2 (\(values))")
        XCTAssertEqual(JSONValue.parse("[true,false,null]"), .array([.bool(true), .bool(false), .null]))
    }

    func testNestingIsBounded() {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNotNil(JSONValue.parse(ok))
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertEqual(reason(deep), "nested deeper than 512 levels at byte 513")
    }
}
