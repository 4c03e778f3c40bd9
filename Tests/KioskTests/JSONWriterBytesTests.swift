import CarouselCore
import JSON
import KioskConfig
import XCTest
@testable import Kiosk

/// The JSON writers of Kiosk quote their strings through `JSONString.quoted` (issue 28 §4; they
/// used `EventLog.quote` before): the same bytes as before for strings with every kind of
/// escape, and JSON that reads back to what went in.
final class JSONWriterBytesTests: XCTestCase {
    /// A string with each escape the encoder writes and text it keeps as it is.
    private let awkward = "a\"b\\c\nd\re\tf\u{1}g\u{8}h\u{C}i\u{1F}j/é🙂\u{2028}\u{7F}"
    /// `awkward` as `EventLog.quote` wrote it.
    private let awkwardJSON = #""a\"b\\c\nd\re\tf\u0001g\u0008h\u000ci\u001fj/é🙂"# + "\u{2028}\u{7F}\""

    func testTheEventsStreamWritesTheSameLine() throws {
        let log = try EventLog(path: nil)
        log.write(TimedCarouselEvent(time: 1.5, event: .selected(index: 0)),
                  items: [ItemConfig(id: "id \"1\"", title: awkward)])
        XCTAssertEqual(log.lines, [#"{"t":1.5000,"event":"selected","index":0,"id":"id \"1\"","title":"# + awkwardJSON + "}"])
        let fields = try XCTUnwrap(JSONValue.parse(log.lines[0])?.objectValue)
        XCTAssertEqual(fields["title"], .string(awkward))
    }

    func testControlRepliesWriteTheSameLine() {
        XCTAssertEqual(ControlReply.error(awkward).line(command: nil, requestID: .string("k\n")),
                       #"{"reply":"error","id":"k\n","ok":false,"error":"# + awkwardJSON + "}")
        XCTAssertEqual(ControlReply.screenshot(path: awkward).line(command: "screenshot", requestID: nil),
                       #"{"reply":"screenshot","ok":true,"path":"# + awkwardJSON + "}")
    }

    func testTheReloadReportWritesTheSameFields() {
        let problems = [ConfigDiagnostic(file: "/etc/k.toml", line: 3, column: 8, message: awkward)]
        let fields = ReloadReport.fields(adopted: false, problems: problems)
        XCTAssertEqual(fields.first { $0.0 == "problems" }?.1, #"["/etc/k.toml:3:8: "# + awkwardJSON.dropFirst() + "]")
        XCTAssertEqual(fields.first { $0.0 == "error" }?.1,
                       #""/etc/k.toml was not adopted (1 problem): the kiosk keeps what it showed""#)
    }
}
