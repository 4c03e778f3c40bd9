import Glibc
import LinuxSystem

/// Delivers SIGTERM, SIGINT, SIGHUP and SIGCHLD through a `SignalFD`, so signals are handled in
/// the loop like any other input (no async-signal-safety traps). The signals are blocked for
/// the process; children started with `posix_spawn` get them unblocked again by the spawner.
public final class SignalWatcher {
    private let signals: SignalFD
    /// The descriptor the loop watches.
    public var fd: Int32 { signals.fd }
    public static let watchedSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]

    public init() throws {
        signals = try SignalFD(signals: Self.watchedSignals)
    }

    /// Blocks the watched signals on the calling thread. Call it first thing on the main
    /// thread, before any other thread exists: threads inherit the mask, and a signal delivered
    /// to a thread that does not block it would kill the process without restoring the screen.
    public static func blockWatchedSignals() throws {
        try SignalFD.block(watchedSignals)
    }

    /// The signals that arrived since the last call (in arrival order).
    public func drain() -> [Int32] { signals.drain() }
}
