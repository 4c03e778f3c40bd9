import CarouselCore
import XCTest
@testable import Input

final class InputScriptTests: XCTestCase {
    /// Every event type survives `line(for:)` → `parse` unchanged (what `record` writes,
    /// `simulate` reads back).
    func testEveryEventTypeRoundTrips() throws {
        let events: [InputEvent] = [
            .touchDown(slot: 2, x: 600, y: 240.5), .touchMotion(slot: 2, x: 550.125, y: 240),
            .touchUp(slot: 2), .touchCancel(slot: 0), .pointerMotion(x: 1, y: 799),
            .pointerButton(pressed: true), .pointerButton(pressed: false), .pointerAxis(delta: -2),
            .rotary(delta: 3), .rotary(delta: -1),
        ] + KeyName.allCases.flatMap { [InputEvent.keyDown($0), .keyUp($0)] }
        let timed = events.enumerated().map { TimedInputEvent(time: Double($0.offset) / 8, event: $0.element) }
        let text = "# recorded\n" + timed.map(InputScript.line(for:)).joined(separator: "\n") + "\n"
        XCTAssertEqual(try InputScript.parse(text), timed)
    }

    /// A JSON problem is reported at its column with the reader's reason (an out-of-range number
    /// was "not a JSON object"); a line that is JSON but not an object says so.
    func testJSONProblemsAreReportedAtTheirColumn() {
        let text = "{\"t\":0,\"type\":\"pointer_motion\",\"x\": 1e999,\"y\":1}\n  {\"t\":1,\"type\":\"rotary\",\"delta\":1,}\n[1]\n"
        XCTAssertThrowsError(try InputScript.parse(text, file: "big.jsonl")) { e in
            XCTAssertEqual("\(e)".split(separator: "\n").map(String.init), [
                "big.jsonl:1:37: not JSON: number 1e999 is out of range (numbers must lie within ±1.7976931348623157e308)",
                "big.jsonl:2:36: not JSON: expected a key in quotes",
                "big.jsonl:3: not a JSON object (each line is one {…})",
            ])
        }
    }

    func testEveryBadLineIsReportedWithItsNumber() {
        let text = """
        {"t":0,"type":"touch_down","x":1}
        {"t":0.1,"type":"key_down","key":"space"}
        {"t":0.2,"type":"rotary","delta":1}
        not json
        {"t":-1,"type":"touch_up"}
        {"t":0.3,"type":"rotary","delta":1.5}
        """
        XCTAssertThrowsError(try InputScript.parse(text, file: "bug.jsonl")) { e in
            let lines = "\(e)".split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 5, "\(e)")
            XCTAssertEqual(lines.first, "bug.jsonl:1: missing \"y\"")
            XCTAssertTrue(lines[1].hasPrefix("bug.jsonl:2: \"key\" must be one of"))
            XCTAssertEqual(lines[2], "bug.jsonl:4:1: not JSON: 'not' is not a JSON value (a value is an object {…}, an array […], "
                           + "a \"string\", a number, true, false or null)")
            XCTAssertEqual(lines[3], "bug.jsonl:5: \"t\" must not be negative")
            XCTAssertEqual(lines[4], "bug.jsonl:6: \"delta\" must be a whole number")
        }
    }
}
