import CarouselCore
import Glibc
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
            .rotary(delta: 3), .rotary(delta: -1), .headphones(plugged: true), .headphones(plugged: false),
        ] + KeyName.allCases.flatMap { [InputEvent.keyDown($0), .keyUp($0)] }
        let timed = events.enumerated().map { TimedInputEvent(time: Double($0.offset) / 8, event: $0.element) }
        let text = "# recorded\n" + timed.map(InputScript.line(for:)).joined(separator: "\n") + "\n"
        XCTAssertEqual(try InputScript.parse(text), timed)
    }

    /// A JSON problem is reported at its column with the reader's reason (an out-of-range number
    /// was "not a JSON object"); a line that is JSON but not an object says so.
    /// `record`'s key lines, whose key name goes through `JSONString.quoted` (issue 28 §4):
    /// the same bytes as when it was pasted in between quotes.
    func testKeyLinesAreWrittenAsBefore() {
        XCTAssertEqual(InputScript.line(for: TimedInputEvent(time: 0.25, event: .keyDown(.enter))),
                       #"{"t":0.2500,"type":"key_down","key":"enter"}"#)
        XCTAssertEqual(InputScript.line(for: TimedInputEvent(time: 1, event: .keyUp(.escape))),
                       #"{"t":1.0000,"type":"key_up","key":"escape"}"#)
    }

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

    /// docs/input-script.md: every touch_down is followed by one touch_up or touch_cancel of its
    /// slot. A script that breaks that was accepted silently (issue 27); it is reported at the
    /// touch_down's line, in time order (lines need not be sorted).
    func testTouchDownWithoutTouchUpIsReportedAtItsLine() {
        let missingUp = """
        {"t":0.1,"type":"touch_down","slot":0,"x":1,"y":1}
        {"t":0.2,"type":"touch_motion","slot":0,"x":5,"y":1}
        """
        XCTAssertThrowsError(try InputScript.parse(missingUp, file: "s.jsonl")) { e in
            XCTAssertEqual("\(e)", "s.jsonl:1: touch_down of slot 0 has no touch_up or touch_cancel after it")
        }
        let twice = """
        {"t":0.1,"type":"touch_down","slot":3,"x":1,"y":1}
        {"t":0.5,"type":"touch_up","slot":3}
        {"t":0.2,"type":"touch_down","slot":3,"x":2,"y":2}
        """
        XCTAssertThrowsError(try InputScript.parse(twice, file: "s.jsonl")) { e in
            XCTAssertEqual("\(e)", "s.jsonl:1: touch_down of slot 3 is followed by another touch_down of slot 3 (line 3) before its touch_up or touch_cancel")
        }
        // Two fingers, each lifted or cancelled; an up with no finger down (a recording that
        // started mid-touch) is accepted.
        let good = """
        {"t":0.0,"type":"touch_up","slot":1}
        {"t":0.1,"type":"touch_down","slot":0,"x":1,"y":1}
        {"t":0.2,"type":"touch_down","slot":1,"x":1,"y":1}
        {"t":0.3,"type":"touch_cancel","slot":1}
        {"t":0.4,"type":"touch_up","slot":0}
        {"t":0.5,"type":"touch_down","slot":0,"x":1,"y":1}
        {"t":0.6,"type":"touch_up","slot":0}
        """
        XCTAssertEqual(try InputScript.parse(good).count, 7)
    }

    /// What `record` ends a script with when fingers are still down: a script `parse` accepts.
    func testFingersDownAreCancelledAtTheEnd() throws {
        var fingers = FingersDown()
        let events: [InputEvent] = [.touchDown(slot: 0, x: 1, y: 1), .touchDown(slot: 2, x: 1, y: 1), .touchUp(slot: 0), .keyDown(.enter)]
        for e in events { fingers.note(e) }
        XCTAssertEqual(fingers.slots, [2])
        let timed = events.map { TimedInputEvent(time: 0.1, event: $0) } + fingers.cancellations(at: 0.5)
        XCTAssertEqual(timed.last, TimedInputEvent(time: 0.5, event: .touchCancel(slot: 2)))
        XCTAssertEqual(try InputScript.parse(timed.map(InputScript.line(for:)).joined(separator: "\n")), timed)
    }

    /// `load` reads to the end of a pipe (bash's `<(…)` is one) and names a file it cannot read
    /// with the reason; `-` is standard input (SimulateCommandTests runs that through the binary).
    func testLoadReadsPipesAndNamesUnreadableFiles() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let text = Array("{\"t\":0.25,\"type\":\"rotary\",\"delta\":1}\n".utf8)
        XCTAssertEqual(text.withUnsafeBytes { write(fds[1], $0.baseAddress!, $0.count) }, text.count)
        close(fds[1])
        defer { close(fds[0]) }
        XCTAssertEqual(try InputScript.load(path: "/proc/self/fd/\(fds[0])"), [TimedInputEvent(time: 0.25, event: .rotary(delta: 1))])
        XCTAssertThrowsError(try InputScript.load(path: "/nonexistent/script.jsonl")) { e in
            XCTAssertEqual("\(e)", "/nonexistent/script.jsonl: cannot read the file (No such file or directory)")
        }
    }
}
