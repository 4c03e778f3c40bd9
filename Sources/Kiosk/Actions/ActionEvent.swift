import Glibc
import JSON

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It called `exit(code)`.
    case exited(code: Int32)
    /// It was killed by a signal.
    case signaled(signal: Int32)

    /// Decodes a `waitpid` status (which must be an exit or a signal, not a stop).
    init(waitStatus s: Int32) {
        if s & 0x7F == 0 { self = .exited(code: (s >> 8) & 0xFF) } else { self = .signaled(signal: s & 0x7F) }
    }

    public var description: String {
        switch self {
        case .exited(let c): return "exit status \(c)"
        case .signaled(let s): return "killed by signal \(s) (\(Termination.signalName(s)))"
        }
    }

    /// `SIGTERM`, `SIGKILL`…, or `SIG<number>`.
    public static func signalName(_ s: Int32) -> String {
        let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
            SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
            SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
            SIGTERM: "SIGTERM"]
        return names[s] ?? "SIG\(s)"
    }
}

/// Something the action runner reports; the loop writes each to the events file and the
/// control socket (`name` and `fields` are ready for `EventLog.write(time:name:fields:)`).
public struct ActionEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// `action_started`: the program runs as `pid`.
        case started(pid: Int32, mode: String)
        /// `action_exited`: the program ended after `duration` seconds; `timedOut` when the
        /// runner had to end it.
        case exited(pid: Int32, termination: Termination, duration: Double, timedOut: Bool)
        /// `action_failed`: the program could not be started (no such file, not executable,
        /// bad working directory, the display could not be released…).
        case failed(message: String)
        /// `action_timeout`: the timeout passed; `signal` was sent to the program's process group.
        case timeout(pid: Int32, signal: Int32)
        /// `action_leftovers`: a foreground program exited but left processes in its group;
        /// `signal` was sent to them (SIGTERM, then SIGKILL). The screen comes back when they
        /// are gone.
        case leftovers(pgid: Int32, signal: Int32)
        /// `action_left`: the person held the leave key (`[actions] leave_hold`) while a
        /// foreground program ran; SIGTERM was sent to it (SIGKILL follows after the grace period).
        case left(pid: Int32)
        /// `emitted`: an `emit` action's string.
        case emitted(value: String)
        /// `action_skipped`: `simulate` does not start programs; it reports what it would run.
        case skipped(argv: [String], mode: String)
    }

    /// When it happened (the `now` given to the runner).
    public var time: Double
    /// The selected item's index and id.
    public var index: Int
    public var id: String
    public var kind: Kind

    public init(time: Double, index: Int, id: String, kind: Kind) {
        self.time = time; self.index = index; self.id = id; self.kind = kind
    }

    /// The event's name in the JSON-lines stream.
    public var name: String {
        switch kind {
        case .started: return "action_started"
        case .exited: return "action_exited"
        case .failed: return "action_failed"
        case .timeout: return "action_timeout"
        case .leftovers: return "action_leftovers"
        case .left: return "action_left"
        case .emitted: return "emitted"
        case .skipped: return "action_skipped"
        }
    }

    /// The event's fields, each value already JSON-encoded, in a stable order.
    public var fields: [(String, String)] {
        var f: [(String, String)] = [("index", String(index)), ("id", JSONString.quoted(id))]
        switch kind {
        case .started(let pid, let mode):
            f += [("pid", String(pid)), ("mode", JSONString.quoted(mode))]
        case .exited(let pid, let termination, let duration, let timedOut):
            f.append(("pid", String(pid)))
            switch termination {
            case .exited(let code): f.append(("status", String(code)))
            case .signaled(let sig): f.append(("signal", JSONString.quoted(Termination.signalName(sig))))
            }
            f += [("duration", String(format: "%.3f", duration)), ("timed_out", timedOut ? "true" : "false")]
        case .failed(let message):
            f.append(("error", JSONString.quoted(message)))
        case .timeout(let pid, let signal):
            f += [("pid", String(pid)), ("signal", JSONString.quoted(Termination.signalName(signal)))]
        case .leftovers(let pgid, let signal):
            f += [("pgid", String(pgid)), ("signal", JSONString.quoted(Termination.signalName(signal)))]
        case .left(let pid):
            f.append(("pid", String(pid)))
        case .emitted(let value):
            f.append(("value", JSONString.quoted(value)))
        case .skipped(let argv, let mode):
            f += [("argv", "[" + argv.map(JSONString.quoted).joined(separator: ",") + "]"), ("mode", JSONString.quoted(mode))]
        }
        return f
    }

    public static func == (a: ActionEvent, b: ActionEvent) -> Bool {
        a.time == b.time && a.index == b.index && a.id == b.id && a.kind == b.kind
    }
}
