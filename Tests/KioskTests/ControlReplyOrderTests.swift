import Glibc
import Input
import JSON
import LinuxSystem
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// Replies come back in the order a client sent its lines, whether the server refused a line
/// itself or the loop answered it (issue 27: `state` then a bad `scroll_to` in one write was
/// answered bad-first), and a client sending thousands of bad lines costs a bounded number of
/// log lines.
final class ControlReplyOrderTests: XCTestCase {
    private var server: ControlServer!
    private var fd: Int32 = -1
    private var pending: [UInt8] = []

    override func tearDown() {
        if fd >= 0 { close(fd) }
        server?.close()
    }

    private func start(limits: ControlServer.Limits = ControlServer.Limits(), logger: Logger = Logger(label: "test")) throws {
        let path = try temporaryDirectory() + "/c.sock"
        server = try ControlServer(path: path, limits: limits, logger: logger)
        try connectClient()
    }

    /// Connects a new client and waits until the server has taken it.
    private func connectClient() throws {
        let before = server.clientCount
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(UnixSocketAddress.with(server.path) { connect(fd, $0, $1) }, 0, "connect")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        pending = []
        let end = monotonicNow() + 30
        while server.clientCount == before && monotonicNow() < end { _ = server.handleEvents(); usleep(1000) }
        XCTAssertEqual(server.clientCount, before + 1, "the server took the connection within 30 s")
    }

    /// Sends `text` in as few writes as the socket takes, pumping the server meanwhile; returns
    /// the requests that reached the loop, or nil when the server closed the connection.
    private func send(_ text: String, into requests: inout [ControlRequest]) -> Bool {
        let bytes = Array(text.utf8)
        var off = 0
        let end = monotonicNow() + 60
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
            if n > 0 { off += n; continue }
            if errno == EPIPE || errno == ECONNRESET { return false }
            requests += server.handleEvents()
            if monotonicNow() > end { XCTFail("sending \(bytes.count) bytes: the server took only \(off) in 60 s"); return false }
        }
        return true
    }

    /// Reads whatever waits into `pending`; false once the server has closed the connection.
    @discardableResult
    private func drain() -> Bool {
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            if n > 0 { pending += buf[0..<n]; continue }
            return !(n == 0 || (n < 0 && errno == ECONNRESET))
        }
    }

    /// The next `count` reply lines, pumping the server and answering every request that
    /// reaches the loop with `answer` (as `KioskApp.handleControl` does, but in the order
    /// `answerOrder` puts each batch in).
    private func replies(_ count: Int, answerOrder: ([ControlRequest]) -> [ControlRequest] = { $0 },
                         step: String) -> [[String: JSONValue]] {
        var lines: [[String: JSONValue]] = []
        let end = monotonicNow() + 30
        while lines.count < count {
            for r in answerOrder(server.handleEvents()) { server.reply(to: r, .ok) }
            drain()
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(JSONValue.parse(String(decoding: pending[start..<nl], as: UTF8.self))?.objectValue ?? [:])
                start = nl + 1
            }
            pending.removeFirst(start)
            if monotonicNow() > end { XCTFail("\(step): \(lines.count) of \(count) replies in 30 s"); break }
            if lines.count < count { usleep(1000) }
        }
        return lines
    }

    /// `reply` and `id` of each line, `id` "-" when absent.
    private func names(_ lines: [[String: JSONValue]]) -> [String] {
        lines.map { line in
            let id: String
            switch line["id"] {
            case .number(let n)?: id = String(Int(n))
            case .string(let s)?: id = s
            default: id = "-"
            }
            return "\(line["reply"]?.stringValue ?? "?") \(id) \(line["ok"] == .bool(true) ? "ok" : "refused")"
        }
    }

    /// Good and bad lines in one write, answered in the order sent: refusals by the server
    /// (unreadable JSON, unknown command, bad argument, an over-long line) wait for the loop's
    /// answers to the commands before them. The loop answering a batch backwards changes nothing.
    func testPipelinedGoodAndBadLinesAreAnsweredInTheOrderSent() throws {
        var limits = ControlServer.Limits()
        limits.maxLineBytes = 256
        try start(limits: limits)
        let lines = [
            #"{"cmd":"state","id":1}"#, #"{"cmd":"scroll_to","index":-1,"id":2}"#, "not json",
            #"{"cmd":"select","id":4}"#, #"{"cmd":"scroll_to","index":2,"id":5}"#, #"{"cmd":"fly","id":6}"#,
            String(repeating: "x", count: 1000), #"{"cmd":"reload","id":8}"#, #"{"cmd":"scroll_by","items":"x","id":9}"#,
        ]
        let expected = ["state 1 ok", "scroll_to 2 refused", "error - refused", "select 4 ok", "scroll_to 5 ok",
                        "error 6 refused", "error - refused", "reload 8 ok", "scroll_by 9 refused"]
        var early: [ControlRequest] = []
        XCTAssertTrue(send(lines.joined(separator: "\n") + "\n", into: &early))
        XCTAssertEqual(early, [], "the server took the whole write at once")
        XCTAssertEqual(names(replies(lines.count, step: "in order")), expected)
        // Again, the loop answering each batch last request first.
        XCTAssertTrue(send(lines.joined(separator: "\n") + "\n", into: &early))
        XCTAssertEqual(names(replies(lines.count, answerOrder: { $0.reversed() }, step: "answered backwards")), expected)
        // Bad lines first, then good ones, then bad.
        XCTAssertTrue(send("[]\n{\"cmd\":\"state\",\"id\":\"a\"}\n{\"cmd\":\"state\",\"id\":\"b\"}\n{}\n", into: &early))
        XCTAssertEqual(names(replies(4, step: "bad first")), ["error - refused", "state a ok", "state b ok", "error - refused"])
    }

    /// A refusal arriving while an earlier command is still with the loop (not answered in the
    /// same pass) waits for that answer, however long it takes.
    func testARefusalWaitsForTheLoopsAnswerToAnEarlierCommand() throws {
        try start()
        var requests: [ControlRequest] = []
        XCTAssertTrue(send("{\"cmd\":\"state\",\"id\":1}\n", into: &requests))
        let end = monotonicNow() + 30
        while requests.isEmpty && monotonicNow() < end { requests += server.handleEvents(); usleep(1000) }
        XCTAssertEqual(requests.map(\.command), [.state], "the command reached the loop")
        XCTAssertTrue(send("{\"cmd\":\"jump\",\"id\":2}\n", into: &requests))
        // The server reads and refuses the second line; its reply must not overtake the first.
        let quiet = monotonicNow() + 0.3
        while monotonicNow() < quiet { requests += server.handleEvents(); drain(); usleep(1000) }
        XCTAssertEqual(pending, [], "nothing is sent before the loop answers line 1")
        XCTAssertEqual(requests.count, 1)
        server.reply(to: requests[0], .state(ControlState(index: 0, offset: 0, itemCount: 3, width: 8, height: 8, fps: 0)))
        XCTAssertEqual(names(replies(2, step: "after the answer")), ["state 1 ok", "error 2 refused"])
    }

    /// 20,000 bad lines from a client that does not read its replies: the first 10 refusals
    /// are logged, then nothing until the client is dropped, in one line with the count
    /// (was ~3,500 lines). A client that reads and hangs up gets its summary when it goes.
    func testTwentyThousandBadLinesLogAtMostElevenLines() throws {
        let capture = LogCapture()
        try start(logger: Logger(label: "test.control") { _ in capture.handler })
        XCTAssertEqual(ControlServer.Limits().loggedRefusalsPerClient, 10)
        var requests: [ControlRequest] = []
        let bad = String(repeating: "not json\n", count: 20_000)
        _ = send(bad, into: &requests)
        let end = monotonicNow() + 30
        while server.clientCount > 0 && monotonicNow() < end { _ = server.handleEvents(); usleep(1000) }
        XCTAssertEqual(server.clientCount, 0, "the client that does not read is dropped")
        XCTAssertEqual(requests, [])
        // Lines at the kiosk's default level (info) and above; "connected" is debug.
        let lines = capture.lines.filter { $0.contains("client 1") && !$0.hasPrefix("debug:") && !$0.hasPrefix("trace:") }
        XCTAssertLessThanOrEqual(lines.count, 11, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.contains("refused a line: not JSON: 'not' is not a JSON value") }.count, 10)
        guard lines.count >= 11 else { return XCTFail("too few lines: \(capture.lines)") }
        XCTAssertTrue(lines[9].hasSuffix("(10 refused lines logged: more from client 1 are counted, and logged as one line when it goes)"), lines[9])
        XCTAssertTrue(lines.last!.hasPrefix("warning: control: dropped client 1: not reading (more than 262144 bytes waiting); "), lines.last!)
        XCTAssertTrue(lines.last!.contains(" lines refused, the last "), lines.last!)

        // A client that reads everything and hangs up: 10 lines, then one with the count.
        close(fd)
        try connectClient()
        // In writes of 500 lines, each read back before the next (so its replies fit the queue).
        var answered = 0
        for _ in 0..<40 where send(String(repeating: "not json\n", count: 500), into: &requests) {
            answered += replies(500, step: "the reading client's replies after \(answered)").count
        }
        XCTAssertEqual(answered, 20_000)
        close(fd)
        fd = -1
        let gone = monotonicNow() + 30
        while server.clientCount > 0 && monotonicNow() < gone { _ = server.handleEvents(); usleep(1000) }
        let second = capture.lines.filter { $0.contains("client 2") && !$0.hasPrefix("debug:") && !$0.hasPrefix("trace:") }
        XCTAssertEqual(second.count, 11, second.joined(separator: "\n"))
        guard second.count == 11 else { return }
        XCTAssertEqual(second.last, "info: control: client 2 disconnected; 20000 lines refused, the last 19990 not logged")
    }
}
