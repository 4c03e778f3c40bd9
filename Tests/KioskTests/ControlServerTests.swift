import Glibc
import Input
import JSON
import Raster
import LinuxSystem
import XCTest
@testable import Kiosk

/// A blocking-free test client on a real unix socket.
private final class TestClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let r = UnixSocketAddress.with(path) { connect(fd, $0, $1) }
        if r != 0 { throw SystemCallError(call: "connect") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
            if n > 0 { off += n } else { usleep(1000) }
        }
    }

    /// The next complete line, pumping the server meanwhile; nil after `limit` seconds.
    func readLine(pumping server: ControlServer, into requests: inout [ControlRequest], limit: Double = 2) -> String? {
        let end = monotonicNow() + limit
        repeat {
            if let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeFirst(nl + 1)
                return line
            }
            requests += server.handleEvents()
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            if n > 0 { pending += buf[0..<n] } else if n == 0 { return nil } else if limit > 0 { usleep(1000) }
        } while monotonicNow() < end
        return nil
    }

    /// True when the server has closed this connection.
    func isClosed(pumping server: ControlServer, limit: Double = 2) -> Bool {
        let end = monotonicNow() + limit
        while monotonicNow() < end {
            _ = server.handleEvents()
            var buf = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            if n == 0 || (n < 0 && errno == ECONNRESET) { return true }
            if n < 0 { usleep(1000) }
        }
        return false
    }
}

final class ControlServerTests: XCTestCase {
    private func object(_ line: String?) -> [String: JSONValue] {
        guard let line, let o = JSONValue.parse(line)?.objectValue else {
            XCTFail("not a JSON object: \(line ?? "nil")")
            return [:]
        }
        return o
    }

    /// Pumps the server until `count` requests arrived.
    private func requests(_ server: ControlServer, count: Int) -> [ControlRequest] {
        var out: [ControlRequest] = []
        let end = monotonicNow() + 2
        while out.count < count && monotonicNow() < end {
            out += server.handleEvents()
            if out.count < count { usleep(1000) }
        }
        return out
    }

    func testSocketIsOwnerOnlyInANewPrivateFolder() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/run/kiosk/control.sock"
        let server = try ControlServer(path: path)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(dir + "/run/kiosk", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(dir + "/run", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        // No temporary name is left next to it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/run/kiosk"), ["control.sock"])
        server.close()
        XCTAssertNotEqual(access(path, F_OK), 0, "close removes the socket file")
    }

    func testStateRoundTripWithID() throws {
        let path = try temporaryDirectory() + "/c.sock"
        let server = try ControlServer(path: path)
        let client = try TestClient(path: path)
        client.send("{\"cmd\":\"state\",\"id\":\"q1\"}\n")
        let got = requests(server, count: 1)
        XCTAssertEqual(got.map(\.command), [.state])
        server.reply(to: got[0], .state(ControlState(index: 3, offset: 2.75, itemCount: 12, width: 1280, height: 720, fps: 59.9)))
        var more: [ControlRequest] = []
        let reply = object(client.readLine(pumping: server, into: &more))
        XCTAssertEqual(reply["reply"], .string("state"))
        XCTAssertEqual(reply["id"], .string("q1"))
        XCTAssertEqual(reply["ok"], .bool(true))
        XCTAssertEqual(reply["index"], .number(3))
        XCTAssertEqual(reply["offset"], .number(2.75))
        XCTAssertEqual(reply["item_count"], .number(12))
        XCTAssertEqual(reply["width"], .number(1280))
        XCTAssertEqual(reply["height"], .number(720))
        XCTAssertEqual(reply["fps"], .number(59.9))
        XCTAssertEqual(more, [])
    }

    func testMalformedLinesGetErrorsAndReachNobody() throws {
        let path = try temporaryDirectory() + "/c.sock"
        let server = try ControlServer(path: path)
        let client = try TestClient(path: path)
        let bad = ["garbage", "[1,2]", "{}", "{\"cmd\":5}", "{\"cmd\":\"fly\"}", "{\"cmd\":\"scroll_to\"}",
                   "{\"cmd\":\"scroll_to\",\"index\":-1}", "{\"cmd\":\"scroll_to\",\"index\":1.5}",
                   "{\"cmd\":\"scroll_by\",\"items\":\"two\"}", "{\"cmd\":\"state\",\"extra\":1}",
                   "{\"cmd\":\"screenshot\",\"path\":\"relative.png\"}", String(repeating: "[", count: 5000),
                   "{\"cmd\":\"scroll_to\",\"index\":1,\"duration\":-3,\"id\":7}"]
        var received: [ControlRequest] = []
        for line in bad {
            client.send(line + "\n")
            let reply = object(client.readLine(pumping: server, into: &received))
            XCTAssertEqual(reply["ok"], .bool(false), line)
            XCTAssertNotNil(reply["error"]?.stringValue, line)
        }
        client.send("{\"cmd\":\"scroll_to\",\"index\":1,\"duration\":-3,\"id\":7}\n")
        let last = object(client.readLine(pumping: server, into: &received))
        XCTAssertEqual(last["id"], .number(7))
        XCTAssertEqual(last["reply"], .string("scroll_to"))
        XCTAssertEqual(received, [], "malformed lines must never reach the loop")
        // The connection still works afterwards.
        client.send("{\"cmd\":\"reload\"}\r\n\n   \n")
        XCTAssertEqual(requests(server, count: 1).map(\.command), [.reload])
    }

    func testLongLineIsRefusedAndTheNextOneWorks() throws {
        let path = try temporaryDirectory() + "/c.sock"
        var limits = ControlServer.Limits()
        limits.maxLineBytes = 256
        let server = try ControlServer(path: path, limits: limits)
        let client = try TestClient(path: path)
        client.send(String(repeating: "x", count: 10_000) + "\n{\"cmd\":\"state\"}\n")
        var received: [ControlRequest] = []
        let reply = object(client.readLine(pumping: server, into: &received))
        XCTAssertEqual(reply["ok"], .bool(false))
        XCTAssertTrue(reply["error"]?.stringValue?.contains("longer than 256") ?? false)
        if received.isEmpty { received += requests(server, count: 1) }
        XCTAssertEqual(received.map(\.command), [.state])
        // Exactly the limit is a line, also ended by \r\n (the \r is the line's end, not its
        // text; it was counted); one byte more is refused.
        let command = "{\"cmd\":\"state\"}"
        let longest = command + String(repeating: " ", count: 256 - command.utf8.count)
        client.send(longest + "\r\n" + longest + "\n")
        let two = requests(server, count: 2)
        XCTAssertEqual(two.map(\.command), [.state, .state])
        for r in received + two { server.reply(to: r, .ok) }
        for _ in 0..<3 { XCTAssertEqual(object(client.readLine(pumping: server, into: &received))["ok"], .bool(true)) }
        client.send(longest + " \r\n")
        XCTAssertTrue(object(client.readLine(pumping: server, into: &received))["error"]?.stringValue?.contains("longer than 256") ?? false)
    }

    func testSeveralClientsRepliesAndBroadcast() throws {
        let path = try temporaryDirectory() + "/c.sock"
        let server = try ControlServer(path: path)
        let a = try TestClient(path: path), b = try TestClient(path: path)
        a.send("{\"cmd\":\"select\"}\n")
        b.send("{\"cmd\":\"select\",\"index\":4}\n")
        let got = requests(server, count: 2)
        XCTAssertEqual(Set(got.map(\.command)), [.select(index: nil), .select(index: 4)])
        XCTAssertEqual(server.clientCount, 2)
        for r in got { server.reply(to: r, .ok) }
        server.broadcast("{\"t\":1.0000,\"event\":\"selected\",\"index\":4}")
        var extra: [ControlRequest] = []
        for c in [a, b] {
            XCTAssertEqual(object(c.readLine(pumping: server, into: &extra))["reply"], .string("select"))
            XCTAssertEqual(object(c.readLine(pumping: server, into: &extra))["event"], .string("selected"))
        }
    }

    func testClientThatNeverReadsIsDroppedWithoutBlocking() throws {
        let path = try temporaryDirectory() + "/c.sock"
        var limits = ControlServer.Limits()
        limits.maxQueuedBytes = 64 * 1024
        let server = try ControlServer(path: path, limits: limits)
        let sleeper = try TestClient(path: path)
        let reader = try TestClient(path: path)
        _ = requests(server, count: 0)
        let end = monotonicNow() + 2
        while server.clientCount < 2 && monotonicNow() < end { _ = server.handleEvents(); usleep(1000) }
        XCTAssertEqual(server.clientCount, 2)
        let event = "{\"t\":0.0000,\"event\":\"current_index_changed\",\"index\":1," + String(repeating: "\"pad\":0,", count: 50) + "\"end\":1}"
        let t0 = monotonicNow()
        var readerLines = 0
        var ignored: [ControlRequest] = []
        // Far more than socket buffers and the queue limit hold.
        for _ in 0..<20_000 {
            server.broadcast(event)
            while reader.readLine(pumping: server, into: &ignored, limit: 0) != nil { readerLines += 1 }
        }
        XCTAssertLessThan(monotonicNow() - t0, 10, "broadcast must never wait for a client")
        XCTAssertEqual(server.clientCount, 1, "the client that never reads is dropped")
        XCTAssertTrue(sleeper.isClosed(pumping: server))
        while reader.readLine(pumping: server, into: &ignored, limit: 0.2) != nil { readerLines += 1 }
        XCTAssertEqual(readerLines, 20_000, "the reading client got every event")
    }

    func testHalfClosedClientStillGetsItsReply() throws {
        let path = try temporaryDirectory() + "/c.sock"
        let server = try ControlServer(path: path)
        let client = try TestClient(path: path)
        client.send("{\"cmd\":\"state\"}")  // no newline, then end of writing (like `socat`)
        shutdown(client.fd, Int32(SHUT_WR))
        let got = requests(server, count: 1)
        XCTAssertEqual(got.map(\.command), [.state])
        server.reply(to: got[0], .error("no display"))
        var ignored: [ControlRequest] = []
        XCTAssertEqual(object(client.readLine(pumping: server, into: &ignored))["error"], .string("no display"))
        XCTAssertTrue(client.isClosed(pumping: server))
        XCTAssertEqual(server.clientCount, 0)
    }

    func testTooManyClientsAreRefused() throws {
        let path = try temporaryDirectory() + "/c.sock"
        var limits = ControlServer.Limits()
        limits.maxClients = 2
        let server = try ControlServer(path: path, limits: limits)
        let clients = try (0..<3).map { _ in try TestClient(path: path) }
        var ignored: [ControlRequest] = []
        let refusal = object(clients[2].readLine(pumping: server, into: &ignored))
        XCTAssertEqual(refusal["ok"], .bool(false))
        XCTAssertEqual(server.clientCount, 2)
    }

    func testStaleSocketIsReplacedLiveOneAndFilesAreNot() throws {
        let dir = try temporaryDirectory()
        // A stale socket: bound, never listening, closed (as after a crash).
        let stale = dir + "/stale.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(UnixSocketAddress.with(stale) { bind(fd, $0, $1) }, 0)
        close(fd)
        let server = try ControlServer(path: stale)
        XCTAssertNoThrow(try TestClient(path: stale))
        // A live one is left alone.
        XCTAssertThrowsError(try ControlServer(path: stale)) { XCTAssertTrue("\($0)".contains("another program is listening"), "\($0)") }
        server.close()
        // A regular file is never removed.
        let file = dir + "/file.sock"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        XCTAssertThrowsError(try ControlServer(path: file)) { XCTAssertTrue("\($0)".contains("not a socket"), "\($0)") }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep")
        XCTAssertThrowsError(try ControlServer(path: "relative.sock"))
        XCTAssertThrowsError(try ControlServer(path: dir + "/" + String(repeating: "n", count: 120)))
    }

    func testClosedClientIsForgotten() throws {
        let path = try temporaryDirectory() + "/c.sock"
        let server = try ControlServer(path: path)
        var client: TestClient? = try TestClient(path: path)
        client?.send("{\"cmd\":\"state\"}\n")
        let got = requests(server, count: 1)
        client = nil
        let end = monotonicNow() + 2
        while server.clientCount > 0 && monotonicNow() < end { _ = server.handleEvents(); usleep(1000) }
        XCTAssertEqual(server.clientCount, 0, "a hung-up client is dropped")
        XCTAssertEqual(server.handleEvents(), [], "and leaves nothing that keeps the descriptor readable")
        var pfd = pollfd(fd: server.fileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&pfd, 1, 0), 0, "an idle server must not wake the loop")
        server.reply(to: got[0], .ok)  // the client is gone: nothing happens
        server.broadcast("{\"event\":\"x\"}")
    }

    func testScreenshotWriterIsAtomicAndReportsFailures() throws {
        let dir = try temporaryDirectory()
        let canvas = Canvas(width: 4, height: 3)
        let path = dir + "/shot.png"
        try ScreenshotWriter.write(canvas, to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["shot.png"])
        // The parent is a file, or missing: a clean error naming the path asked for, not the
        // temporary file the bytes would have gone to first (issue 27), with the errno kept.
        XCTAssertThrowsError(try ScreenshotWriter.write(canvas, to: path + "/x.png")) {
            XCTAssertEqual("\($0)", "\(path)/x.png: cannot create the file (Not a directory)")
            XCTAssertEqual(($0 as? FileWriteError)?.errno, ENOTDIR)
        }
        XCTAssertThrowsError(try ScreenshotWriter.write(canvas, to: dir + "/missing/x.png")) {
            XCTAssertEqual("\($0)", "\(dir)/missing/x.png: cannot create the file (No such file or directory)")
        }
        // A write that stops half-way (as on a full disk; here a file-size limit makes write
        // fail with EFBIG): an error, the old file untouched, no temporary left behind.
        var old = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        var small = old
        small.rlim_cur = 1000
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small)
        XCTAssertThrowsError(try ScreenshotWriter.write(bytes: [UInt8](repeating: 7, count: 5000), to: path)) {
            XCTAssertEqual("\($0)", "\(path): cannot write the file (File too large)")
        }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        signal(SIGXFSZ, oldHandler)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["shot.png"])
    }
}
