#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor the program owns: closed exactly once — by `close()`, or when the value
/// goes — and never used after. Every descriptor `LinuxSystem` opens is held in one (the epoll,
/// the timer, signal, event and inotify descriptors, files written and copied), so none leaks on
/// an error path and none is closed twice (a second close could close a descriptor another
/// thread has just been given the same number).
public final class FileDescriptor {
    /// The number, for system calls; -1 once closed.
    public private(set) var raw: Int32

    /// Takes ownership of `raw` (which must be open).
    public init(owning raw: Int32) {
        self.raw = raw
    }

    /// `open(2)` with `O_CLOEXEC` added and EINTR retried; the error names `path`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> FileDescriptor {
        let fd = retryingOnEINTR { Glibc.open(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemCallError(call: "open", subject: path) }
        return FileDescriptor(owning: fd)
    }

    /// `SystemCall.check` of a call that returns a new descriptor, owned.
    public static func check(_ call: String, _ body: () -> Int32) throws -> FileDescriptor {
        FileDescriptor(owning: try SystemCall.check(call, body))
    }

    /// Closes it now (not retried on EINTR: Linux has closed it anyway); returns `close`'s
    /// result (0, or -1 with `errno`: for a file written, a late write error). Later calls do
    /// nothing and return 0.
    @discardableResult
    public func close() -> Int32 {
        guard raw >= 0 else { return 0 }
        let fd = raw
        raw = -1
        return Glibc.close(fd)
    }

    deinit { close() }
}
