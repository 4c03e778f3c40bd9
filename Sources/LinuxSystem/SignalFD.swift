import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals read from a `signalfd` instead of handled asynchronously: the signals are blocked
/// on the calling thread and arrive as readable data, so a loop handles them like any other
/// input (no async-signal-safety traps). Non-blocking, close-on-exec.
///
/// Blocking works per thread and threads inherit the mask: make the `SignalFD` (or call
/// `block(_:)`) on the main thread before any other thread exists, or a signal may be delivered
/// to a thread that does not block it and act by default (end the process).
public final class SignalFD {
    /// The descriptor to watch for reading.
    public var fd: Int32 { descriptor.raw }
    private let descriptor: FileDescriptor
    /// The signals it reports.
    public let signals: [Int32]

    /// Blocks `signals` on the calling thread (`pthread_sigmask`), then `signalfd` for them.
    public init(signals: [Int32]) throws {
        self.signals = signals
        try Self.block(signals)
        var mask = Self.mask(signals)
        descriptor = try FileDescriptor.check("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }


    /// `pthread_sigmask(SIG_BLOCK)` for `signals` on the calling thread.
    public static func block(_ signals: [Int32]) throws {
        var m = mask(signals)
        let rc = pthread_sigmask(SIG_BLOCK, &m, nil)
        if rc != 0 { throw SystemCallError(call: "pthread_sigmask", errno: rc) }
    }

    /// A `sigset_t` holding `signals`.
    public static func mask(_ signals: [Int32]) -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        return mask
    }

    /// The signals that arrived since the last call, in arrival order (empty when none).
    public func drain() -> [Int32] {
        var out: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while retryingOnEINTR({ Glibc.read(fd, &info, size) }) == size {
            out.append(Int32(info.ssi_signo))
        }
        return out
    }
}
