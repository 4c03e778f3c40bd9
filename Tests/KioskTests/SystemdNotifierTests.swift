import Glibc
import LinuxSystem
import XCTest
@testable import Kiosk

final class SystemdNotifierTests: XCTestCase {
    /// A bound datagram socket standing in for systemd's notify socket.
    private final class FakeManager {
        let fd: Int32
        init(address: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            let r = UnixSocketAddress.with(address) { bind(fd, $0, $1) }
            if r != 0 { throw SystemCallError(call: "bind") }
        }
        deinit { close(fd) }
        /// The next datagram, or nil when none is waiting.
        func receive() -> String? {
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            return n >= 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }
    }

    func testNotificationsReachAPathSocket() throws {
        let path = try temporaryDirectory() + "/notify"
        let manager = try FakeManager(address: path)
        let notifier = try XCTUnwrap(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]))
        XCTAssertNil(notifier.watchdogInterval)
        try notifier.ready(status: "showing 12 items\nreally")
        XCTAssertEqual(manager.receive(), "READY=1\nSTATUS=showing 12 items really")
        try notifier.status("reloading")
        XCTAssertEqual(manager.receive(), "STATUS=reloading")
        try notifier.stopping()
        XCTAssertEqual(manager.receive(), "STOPPING=1")
        XCTAssertNil(manager.receive())
    }

    func testAbstractSocketAndWatchdogSchedule() throws {
        let name = "@kiosk-notify-test-\(getpid())"
        let manager = try FakeManager(address: name)
        let notifier = try XCTUnwrap(SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "3000000"]))
        XCTAssertEqual(notifier.watchdogInterval, 1.5)
        XCTAssertEqual(notifier.nextWatchdogDeadline, -.infinity, "the first ping is due at once")
        XCTAssertTrue(try notifier.pingWatchdogIfDue(now: 10))
        XCTAssertEqual(manager.receive(), "WATCHDOG=1")
        XCTAssertEqual(notifier.nextWatchdogDeadline, 11.5)
        XCTAssertFalse(try notifier.pingWatchdogIfDue(now: 11.4))
        XCTAssertNil(manager.receive())
        XCTAssertTrue(try notifier.pingWatchdogIfDue(now: 11.5))
        XCTAssertEqual(manager.receive(), "WATCHDOG=1")
    }

    func testEnvironmentRules() throws {
        XCTAssertNil(SystemdNotifier(environment: [:]))
        XCTAssertNil(SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]))
        XCTAssertNil(SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]))
        let other = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"], pid: 42)
        XCTAssertNil(other?.watchdogInterval, "the watchdog belongs to another process")
        let mine = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "42"], pid: 42)
        XCTAssertEqual(mine?.watchdogInterval, 0.5)
        XCTAssertNil(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "soon"])?.watchdogInterval)
    }

    func testSendingToAMissingSocketFailsWithoutBlocking() throws {
        let notifier = try SystemdNotifier(socketPath: try temporaryDirectory() + "/absent", watchdogUSec: nil)
        XCTAssertThrowsError(try notifier.ready()) { XCTAssertTrue("\($0)".contains("No such file"), "\($0)") }
    }
}
