#if canImport(Glibc)
import CCardLibs
import Glibc
#endif

/// A Linux eventfd: worker threads `signal()` it, the main loop's epoll sees it readable, and
/// `reset()` reads the counter back to zero. Non-blocking, close-on-exec.
final class EventFD {
    let fd: Int32

    init() {
        fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(fd >= 0, "eventfd failed: \(String(cString: strerror(errno)))")
    }

    deinit { close(fd) }

    /// Adds one to the counter (wakes a poller); safe from any thread.
    func signal() {
        var one: UInt64 = 1
        while write(fd, &one, 8) < 0 && errno == EINTR {}
    }

    /// Reads and clears the counter; returns how many signals there were (0 if none).
    @discardableResult
    func reset() -> UInt64 {
        var value: UInt64 = 0
        while true {
            let n = read(fd, &value, 8)
            if n == 8 { return value }
            if n < 0 && errno == EINTR { continue }
            return 0
        }
    }

    /// Waits until signalled or `timeout` seconds pass (for tools and tests; the kiosk uses epoll).
    @discardableResult
    func wait(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(max(0, timeout * 1000))) > 0
    }
}
