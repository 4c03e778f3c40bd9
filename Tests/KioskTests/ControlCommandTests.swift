import Input
import JSON
import KioskConfig
import XCTest
@testable import Kiosk

final class ControlCommandTests: XCTestCase {
    private func ok(_ line: String) -> ControlLine? {
        if case .success(let l) = ControlCommandParser.parse(line) { return l }
        XCTFail("refused: \(line)")
        return nil
    }

    private func error(_ line: String) -> ControlCommandError? {
        if case .failure(let e) = ControlCommandParser.parse(line) { return e }
        XCTFail("accepted: \(line)")
        return nil
    }

    func testEveryCommand() {
        XCTAssertEqual(ok(#"{"cmd":"scroll_to","index":3,"duration":0.5}"#)?.command, .scrollTo(index: 3, duration: 0.5))
        XCTAssertEqual(ok(#"{"cmd":"scroll_to","index":0}"#)?.command, .scrollTo(index: 0, duration: nil))
        XCTAssertEqual(ok(#"{"cmd":"scroll_by","items":-2.5,"duration":0}"#)?.command, .scrollBy(items: -2.5, duration: 0))
        XCTAssertEqual(ok(#"{"cmd":"select"}"#)?.command, .select(index: nil))
        XCTAssertEqual(ok(#"{"cmd":"select","index":4}"#)?.command, .select(index: 4))
        XCTAssertEqual(ok(#"{"cmd":"reload"}"#)?.command, .reload)
        XCTAssertEqual(ok(#" { "id" : 12 , "cmd" : "state" } "#), ControlLine(command: .state, requestID: .number(12)))
        XCTAssertEqual(ok(#"{"cmd":"screenshot","path":"/tmp/a b.png"}"#)?.command, .screenshot(path: "/tmp/a b.png"))
        XCTAssertEqual(ControlCommand.scrollBy(items: 1, duration: nil).name, "scroll_by")
    }

    func testRefusals() {
        XCTAssertEqual(error("")?.message, "not JSON: expected a value, found the end at byte 1")
        XCTAssertEqual(error("not json")?.message, "not JSON: 'not' is not a JSON value at byte 1 (a value is an object {…}, "
                       + "an array […], a \"string\", a number, true, false or null)", "was: expected null at byte 1")
        XCTAssertEqual(error("null")?.message.hasPrefix("expected a JSON object"), true)
        XCTAssertEqual(error(#"{"cmd":"state""#)?.message, "not JSON: expected ',' or '}' at byte 15")
        // Two values for one key: refused rather than silently taking one (found by the soak).
        XCTAssertEqual(error(#"{"cmd":"select","index":1,"index":2}"#)?.message, #"not JSON: duplicate key "index" at byte 27"#)
        XCTAssertEqual(error(#"{"index":3}"#)?.message, #"missing "cmd""#)
        XCTAssertTrue(error(#"{"cmd":"jump"}"#)!.message.contains("unknown command 'jump'"))
        let unknownKey = error(#"{"cmd":"select","indx":2,"id":"a"}"#)
        XCTAssertEqual(unknownKey?.message, "unknown key 'indx' for select")
        XCTAssertEqual(unknownKey?.command, "select")
        XCTAssertEqual(unknownKey?.requestID, .string("a"))
        XCTAssertNotNil(error(#"{"cmd":"scroll_to","index":"3"}"#))
        XCTAssertNotNil(error(#"{"cmd":"scroll_to","index":true}"#))
        XCTAssertNotNil(error(#"{"cmd":"scroll_to","index":1e300}"#))
        XCTAssertNotNil(error(#"{"cmd":"scroll_to","index":2,"duration":4000}"#))
        XCTAssertNotNil(error(#"{"cmd":"scroll_by"}"#))
        XCTAssertNotNil(error(#"{"cmd":"scroll_by","items":1e9}"#))
        XCTAssertNotNil(error(#"{"cmd":"screenshot"}"#))
        XCTAssertNotNil(error(#"{"cmd":"screenshot","path":"/tmp/"}"#))
        XCTAssertNotNil(error(#"{"cmd":"screenshot","path":"/tmp/a\u0000b"}"#))
        XCTAssertNotNil(error(#"{"cmd":"state","id":{"x":1}}"#))
        XCTAssertNotNil(error(String(repeating: "[", count: 100_000)))
        XCTAssertNotNil(error(#"{"cmd":"state","a":"#  + String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 21)))
    }

    func testNestingCountsOutsideStringsOnly() {
        XCTAssertEqual(ControlCommandParser.nestingDepth(#"{"a":"[[[[{{{{\"["}"#), 1)
        XCTAssertEqual(ControlCommandParser.nestingDepth("[[1],[[2]]]"), 3)
    }

    func testReplyLines() {
        XCTAssertEqual(ControlReply.ok.line(command: "reload", requestID: nil), #"{"reply":"reload","ok":true}"#)
        XCTAssertEqual(ControlReply.error("bad \"x\"").line(command: nil, requestID: .number(3)),
                       #"{"reply":"error","id":3,"ok":false,"error":"bad \"x\""}"#)
        XCTAssertEqual(ControlReply.screenshot(path: "/tmp/s.png").line(command: "screenshot", requestID: .string("k")),
                       #"{"reply":"screenshot","id":"k","ok":true,"path":"/tmp/s.png"}"#)
        let state = ControlReply.state(ControlState(index: 1, offset: .nan, itemCount: 2, width: 800, height: 480, fps: 0))
            .line(command: "state", requestID: nil)
        XCTAssertEqual(state, #"{"reply":"state","ok":true,"index":1,"offset":null,"item_count":2,"width":800,"height":480,"fps":0,"frames":0,"foreground":false,"blanked":false,"card":null,"language":"en"}"#)
        XCTAssertNotNil(JSONValue.parse(state))
    }

    /// `reload` says whether the file was adopted and, when not, its problems as `check-config`
    /// prints them (issue 27 §2: it answered `"ok":true` for a refused file).
    func testReloadReplySaysWhetherTheFileWasAdoptedAndWhyNot() {
        XCTAssertEqual(ControlReply.reload(adopted: true, problems: []).line(command: "reload", requestID: .number(7)),
                       #"{"reply":"reload","id":7,"ok":true}"#)
        let problems = [ConfigDiagnostic(file: "/etc/k.toml", line: 3, column: 8, message: "\"rotray\" is not a carousel type"),
                        ConfigDiagnostic(file: "/etc/k.toml", line: 9, column: 1, message: "unknown key \"spead\"")]
        XCTAssertEqual(ControlReply.reload(adopted: false, problems: problems).line(command: "reload", requestID: nil),
                       #"{"reply":"reload","ok":false,"error":"/etc/k.toml was not adopted (2 problems): the kiosk keeps what it showed","#
                       + #""problem_count":2,"problems":["/etc/k.toml:3:8: \"rotray\" is not a carousel type","/etc/k.toml:9:1: unknown key \"spead\""]}"#)
        let many = (1...80).map { ConfigDiagnostic(file: "/k.toml", line: $0, column: 1, message: "x") }
        let line = ControlReply.reload(adopted: false, problems: many).line(command: "reload", requestID: nil)
        guard case .array(let listed)? = JSONValue.parse(line)?.objectValue?["problems"] else { return XCTFail(line) }
        XCTAssertEqual(listed.count, ReloadReport.listedProblems, "a garbled file lists its first problems")
        XCTAssertEqual(JSONValue.parse(line)?.objectValue?["problem_count"]?.numberValue, 80)
    }
}
