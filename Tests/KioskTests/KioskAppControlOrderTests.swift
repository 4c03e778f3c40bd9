import Display
import Foundation
import Glibc
import Input
import JSON
import KioskConfig
import LinuxSystem
import Logging
import XCTest
@testable import Kiosk

/// The kiosk's own control path (`KioskApp.handleControl`: the server, the parser and
/// `ControlCommandHandler`) answers a pipelined mix of good and bad lines in the order sent,
/// including a command the loop refuses (an index past the items).
final class KioskAppControlOrderTests: XCTestCase {
    func testPipelinedLinesThroughTheLoopAreAnsweredInOrder() throws {
        let folder = try temporaryDirectory()
        let path = folder + "/config.toml"
        try ("[control]\nsocket = \"\(folder)/c.sock\"\n[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n"
            + (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined())
            .write(toFile: path, atomically: true, encoding: .utf8)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: HeadlessDisplay(width: 320, height: 240),
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        XCTAssertEqual(UnixSocketAddress.with(folder + "/c.sock") { connect(fd, $0, $1) }, 0, "connect")
        let lines = [#"{"cmd":"state","id":1}"#, #"{"cmd":"scroll_to","index":-1,"id":2}"#, #"{"cmd":"scroll_to","index":7,"id":3}"#,
                     "not json", #"{"cmd":"scroll_to","index":2,"duration":0,"id":5}"#, #"{"cmd":"jump","id":6}"#, #"{"cmd":"state","id":7}"#]
        let text = lines.joined(separator: "\n") + "\n"
        XCTAssertEqual(text.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }, text.utf8.count, "one write")
        var received: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        // Event lines (the scroll's current_index_changed) may come between replies.
        var replies: [[String: JSONValue]] {
            String(decoding: received, as: UTF8.self).split(separator: "\n")
                .compactMap { JSONValue.parse(String($0))?.objectValue }.filter { $0["event"] == nil }
        }
        let end = monotonicNow() + 30
        while replies.count < lines.count && monotonicNow() < end {
            if let control = app.control { app.handleControl(control) }
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            if n > 0 { received += buf[0..<n] } else { usleep(1000) }
        }
        XCTAssertEqual(replies.count, lines.count, "every line answered within 30 s")
        let summary = replies.map { r -> String in
            let id = r["id"]?.numberValue.map { String(Int($0)) } ?? "-"
            return "\(r["reply"]?.stringValue ?? "?") \(id) \(r["ok"] == .bool(true) ? "ok" : "refused")"
        }
        XCTAssertEqual(summary, ["state 1 ok", "scroll_to 2 refused", "scroll_to 3 refused", "error - refused",
                                 "scroll_to 5 ok", "error 6 refused", "state 7 ok"])
        XCTAssertEqual(replies.last?["index"], .number(2), "the commands were carried out in order too")
        XCTAssertEqual(replies.first?["index"], .number(0))
    }
}
