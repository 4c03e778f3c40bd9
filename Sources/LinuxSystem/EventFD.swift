import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An `eventfd` counter: any thread `signal()`s it, an `epoll` sees it readable, and `reset()`
/// reads the counter back to zero. Non-blocking, close-on-exec.
public final class EventFD: @unchecked Sendable {
    /// The descriptor to watch for reading.
    public var fd: Int32 { descriptor.raw }
    private let descriptor: FileDescriptor

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    public init() throws {
        descriptor = try FileDescriptor.check("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }


    /// Adds one to the counter (makes `fd` readable); safe from any thread.
    public func signal() {
        var one: UInt64 = 1
        _ = retryingOnEINTR { Glibc.write(fd, &one, 8) }
    }

    /// Reads and clears the counter; returns how many signals there were (0 if none).
    @discardableResult
    public func reset() -> UInt64 {
        var value: UInt64 = 0
        let n = retryingOnEINTR { Glibc.read(fd, &value, 8) }
        return n == 8 ? value : 0
    }

    /// Waits until signalled or `timeout` seconds pass, without resetting (for tools and
    /// tests; the kiosk waits in its `epoll`). False on timeout.
    @discardableResult
    public func wait(timeout: Double) -> Bool { waitReadable(fd, timeout: timeout) }
}
