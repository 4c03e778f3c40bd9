import Foundation
import Glibc
import LinuxSystem

/// Talks to systemd's service manager without libsystemd: `sd_notify` datagrams to
/// `$NOTIFY_SOCKET` (a path, or an abstract socket written `@name`), and the watchdog interval
/// from `$WATCHDOG_USEC`.
///
/// Loop use: `ready()` after the first frame is on screen; each loop iteration calls
/// `pingWatchdogIfDue(now:)` — only while `ScreenWatch` says the screen is healthy — and arms its
/// timer for `nextWatchdogDeadline`, so the ping comes from the loop itself and a stalled loop or
/// a dead screen is restarted by systemd (`KioskApp.serviceWatchdog`); `stopping()` at exit.
public final class SystemdNotifier {
    /// The socket address as given (`/run/systemd/notify` or `@abstract-name`).
    public let socketPath: String
    /// Seconds between watchdog pings: half of `$WATCHDOG_USEC`; nil when the watchdog is off
    /// (no `WATCHDOG_USEC`, or `WATCHDOG_PID` names another process).
    public let watchdogInterval: Double?
    /// When the watchdog was last pinged (the loop's `now`).
    public private(set) var lastWatchdogPing: Double?

    private let fd: Int32

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`; nil when not started by a
    /// service manager that listens (no or empty `NOTIFY_SOCKET`).
    public convenience init?(environment: [String: String] = ProcessInfo.processInfo.environment,
                             pid: pid_t = getpid()) {
        guard let socket = environment["NOTIFY_SOCKET"], !socket.isEmpty else { return nil }
        var usec: UInt64?
        if let text = environment["WATCHDOG_USEC"], let v = UInt64(text), v > 0 {
            if let owner = environment["WATCHDOG_PID"], let p = pid_t(owner), p != pid { usec = nil } else { usec = v }
        }
        try? self.init(socketPath: socket, watchdogUSec: usec)
    }

    /// Uses the given socket and watchdog period (microseconds; nil: no watchdog).
    public init(socketPath: String, watchdogUSec: UInt64?) throws {
        guard socketPath.hasPrefix("/") || socketPath.hasPrefix("@") else {
            throw SystemdNotifyError("NOTIFY_SOCKET=\(socketPath): must be an absolute path or start with @")
        }
        guard socketPath.utf8.count <= 107 else { throw SystemdNotifyError("NOTIFY_SOCKET=\(socketPath): too long") }
        self.socketPath = socketPath
        watchdogInterval = watchdogUSec.map { Double($0) / 2_000_000 }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemdNotifyError(errnoMessage("socket", subject: socketPath)) }
    }

    deinit { close(fd) }

    /// Sends one notification: newline-separated `KEY=value` assignments, as `sd_notify(3)`.
    /// Never blocks: a full socket buffer is an error, not a wait.
    public func notify(_ state: String) throws {
        let payload = Array(state.utf8)
        let sent = UnixSocketAddress.with(socketPath) { sa, length in
            payload.withUnsafeBytes { buf in
                retryingOnEINTR { sendto(fd, buf.baseAddress, buf.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        guard sent == payload.count else {
            throw SystemdNotifyError(errnoMessage("sendto", subject: "NOTIFY_SOCKET=\(socketPath)"))
        }
    }

    /// `READY=1`, with an optional `STATUS=`.
    public func ready(status: String? = nil) throws {
        try notify("READY=1" + (status.map { "\nSTATUS=\(Self.oneLine($0))" } ?? ""))
    }

    /// `STOPPING=1`.
    public func stopping(status: String? = nil) throws {
        try notify("STOPPING=1" + (status.map { "\nSTATUS=\(Self.oneLine($0))" } ?? ""))
    }

    /// `RELOADING=1` (then `ready()` when done).
    public func reloading() throws { try notify("RELOADING=1") }

    /// `STATUS=…` (shown by `systemctl status`).
    public func status(_ text: String) throws { try notify("STATUS=\(Self.oneLine(text))") }

    /// `WATCHDOG=1` now.
    public func pingWatchdog(now: Double) throws {
        lastWatchdogPing = now
        try notify("WATCHDOG=1")
    }

    /// When the next ping is due: nil without a watchdog; `-infinity` before the first ping.
    public var nextWatchdogDeadline: Double? {
        guard let interval = watchdogInterval else { return nil }
        guard let last = lastWatchdogPing else { return -.infinity }
        return last + interval
    }

    /// Pings when due; returns true when it sent a ping.
    @discardableResult
    public func pingWatchdogIfDue(now: Double) throws -> Bool {
        guard let due = nextWatchdogDeadline, now >= due else { return false }
        try pingWatchdog(now: now)
        return true
    }

    /// A status text on one line (a newline would start a new assignment).
    static func oneLine(_ s: String) -> String {
        String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// A notification could not be sent.
public struct SystemdNotifyError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
