import Foundation
import Glibc
import Input
import JSON
import LinuxSystem
@testable import Kiosk

/// A client of a live kiosk's control socket: sends lines, and reads the lines the kiosk writes
/// while the test pumps the kiosk's side (`KioskApp.handleControl`, `beforeWait`) between reads.
final class KioskControlClient {
    let fd: Int32
    private var received: [UInt8] = []
    /// Lines read and not asked for yet, in order.
    private var unclaimed: [[String: JSONValue]] = []

    /// Connects to the socket at `path`; throws (with errno) when nobody listens there.
    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard UnixSocketAddress.with(path, { connect(fd, $0, $1) }) == 0 else {
            let error = SystemCallError(call: "connect", subject: path)
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    func send(_ line: String) {
        _ = (line + "\n").withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The first line the kiosk wrote whose JSON object has `key` (`"reply"`, `"event"`) equal to
    /// `value` (others are kept for later calls); `pump` runs between reads. Nil after `limit`
    /// seconds or when the kiosk closed the connection.
    func line(where key: String, is value: String, limit: Double = 10, pump: () -> Void) -> [String: JSONValue]? {
        let end = monotonicNow() + limit
        while monotonicNow() < end {
            while let nl = received.firstIndex(of: UInt8(ascii: "\n")) {
                if let o = JSONValue.parse(String(decoding: received[..<nl], as: UTF8.self))?.objectValue { unclaimed.append(o) }
                received.removeFirst(nl + 1)
            }
            if let i = unclaimed.firstIndex(where: { $0[key]?.stringValue == value }) { return unclaimed.remove(at: i) }
            pump()
            guard waitReadable(fd, timeout: 0.05) else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n == 0 { return nil }
            if n > 0 { received += buffer[0..<n] }
        }
        return nil
    }
}
