import Foundation
import Glibc
import JSON
import LinuxSystem

/// The reboot into a newly installed slot waits for a quiet moment (docs/updates.md): the
/// kiosk's control socket is asked for `state`, and the kiosk is quiet when it is not running,
/// blanked, outside its `[[schedule]]`, or untouched for `idleSeconds` — never while a program
/// it started has the screen, never under a finger.
public struct QuietMoment {
    /// The verdict and why, for the journal.
    public struct Verdict: Equatable, Sendable {
        public var quiet: Bool
        public var reason: String
    }

    /// Seconds without input that make the kiosk idle.
    public var idleSeconds = 300.0
    public init(idleSeconds: Double = 300) { self.idleSeconds = idleSeconds }

    /// Asks the kiosk at `socket` (nil: the config has no `[control] socket`).
    public func ask(socket: String?, now: Double) -> Verdict {
        guard let socket else { return Verdict(quiet: false, reason: "the kiosk has no [control] socket to ask whether it is in use") }
        switch Self.request(socket: socket, line: "{\"cmd\":\"state\"}") {
        case .notRunning(let why): return Verdict(quiet: true, reason: "the kiosk is not running (\(why))")
        case .failed(let why): return Verdict(quiet: false, reason: "the kiosk did not answer: \(why)")
        case .reply(let text): return judge(stateReply: text, now: now)
        }
    }

    /// Judges a `state` reply.
    public func judge(stateReply text: String, now: Double) -> Verdict {
        guard case .object(let s)? = JSONValue.parse(text) else {
            return Verdict(quiet: false, reason: "the kiosk's state reply is not JSON: \(text.prefix(200))")
        }
        if case .bool(true)? = s["foreground"] { return Verdict(quiet: false, reason: "a program the kiosk started has the screen") }
        if case .bool(true)? = s["blanked"] { return Verdict(quiet: true, reason: "the screen is blanked") }
        if case .bool(false)? = s["schedule_open"] { return Verdict(quiet: true, reason: "outside the schedule's opening hours") }
        switch s["last_input_time"] {
        case .number(let t)?:
            let ago = now - t
            return ago >= idleSeconds ? Verdict(quiet: true, reason: "nobody has touched it for \(Int(ago)) s")
                : Verdict(quiet: false, reason: "it was used \(Int(max(0, ago))) s ago")
        default:
            return Verdict(quiet: true, reason: "nobody has touched it since it started")
        }
    }

    enum Answer { case reply(String), notRunning(String), failed(String) }

    /// One request line, one reply line (at most 64 KiB, 5 s).
    static func request(socket path: String, line: String) -> Answer {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = UnixSocketAddress.with(path) { connect(fd, $0, $1) }
        if connected != 0 {
            let e = errno
            let why = "\(path): \(String(cString: strerror(e)))"
            return e == ENOENT || e == ECONNREFUSED ? .notRunning(why) : .failed(why)
        }
        let bytes = Array((line + "\n").utf8)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { return .failed("send: \(String(cString: strerror(errno)))") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(0x0A) && reply.count < 1 << 16 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            reply += buffer[..<n]
        }
        guard let end = reply.firstIndex(of: 0x0A) else { return .failed("no reply line") }
        return .reply(String(decoding: reply[..<end], as: UTF8.self))
    }
}
