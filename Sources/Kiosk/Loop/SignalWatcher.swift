import CLinux
import Glibc

/// Delivers SIGTERM, SIGINT, SIGHUP and SIGCHLD through a `signalfd`, so signals are handled in
/// the loop like any other input (no async-signal-safety traps). The signals are blocked for
/// the process; children started with `posix_spawn` get them unblocked again by the spawner.
public final class SignalWatcher {
    public let fd: Int32
    public static let watchedSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]

    public init() throws {
        try Self.blockWatchedSignals()
        var mask = Self.mask
        fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError("signalfd", errno) }
    }

    deinit { Glibc.close(fd) }

    private static var mask: sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in watchedSignals { sigaddset(&mask, s) }
        return mask
    }

    /// Blocks the watched signals on the calling thread. Call it first thing on the main
    /// thread, before any other thread exists: threads inherit the mask, and a signal delivered
    /// to a thread that does not block it would kill the process without restoring the screen.
    public static func blockWatchedSignals() throws {
        var m = mask
        guard pthread_sigmask(SIG_BLOCK, &m, nil) == 0 else { throw SystemError("pthread_sigmask", errno) }
    }

    /// The signals that arrived since the last call (in arrival order).
    public func drain() -> [Int32] {
        var out: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            out.append(Int32(info.ssi_signo))
        }
        return out
    }
}
