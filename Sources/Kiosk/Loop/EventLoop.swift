import CLinux
import Glibc

/// One `epoll` over every file descriptor that can wake the program. Handlers run on the
/// loop's thread, one at a time; nothing polls or busy-waits.
public final class EventLoop {
    public typealias Handler = () -> Void
    private let epollFD: Int32
    private var handlers: [Int32: Handler] = [:]
    private var stopped = false
    /// How many times `epoll_wait` returned (a still kiosk wakes only for what it must do).
    public private(set) var wakeups = 0

    public init() throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SystemError("epoll_create1", errno) }
    }

    deinit { Glibc.close(epollFD) }

    /// Calls `handler` whenever `fd` is readable (level-triggered). Replaces an earlier handler.
    public func watch(_ fd: Int32, _ handler: @escaping Handler) throws {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue
        ev.data.fd = fd
        let op = handlers[fd] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        guard epoll_ctl(epollFD, op, fd, &ev) == 0 else { throw SystemError("epoll_ctl(\(fd))", errno) }
        handlers[fd] = handler
    }

    /// Stops watching `fd` (it may already be closed).
    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    /// The descriptors watched now.
    public var watched: Set<Int32> { Set(handlers.keys) }

    /// Makes the watched set equal `fds`, all with the same handler factory (for sources whose
    /// descriptors change with hotplug).
    public func sync(_ fds: [Int32], previous: inout [Int32], handler: (Int32) -> Handler) throws {
        for fd in previous where !fds.contains(fd) { unwatch(fd) }
        for fd in fds where !previous.contains(fd) { try watch(fd, handler(fd)) }
        previous = fds
    }

    /// Runs handlers until `stop()`; `beforeWait` runs before each sleep (draw a frame there).
    /// `timeout` bounds one wait in milliseconds (-1: forever).
    public func run(beforeWait: () -> Int32 = { -1 }) {
        var events = [epoll_event](repeating: epoll_event(), count: 32)
        stopped = false
        while !stopped {
            let timeout = beforeWait()
            if stopped { break }
            let n = epoll_wait(epollFD, &events, Int32(events.count), timeout)
            wakeups += 1
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            for i in 0..<Int(n) {
                let fd = events[i].data.fd
                handlers[fd]?()
                if stopped { break }
            }
        }
    }

    /// Makes `run` return after the current handler.
    public func stop() { stopped = true }
}

/// A failed system call, with its name and `errno` text.
public struct SystemError: Error, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public init(_ call: String, _ code: Int32) { self.call = call; self.code = code }
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// Monotonic time in seconds (never goes back, unaffected by clock changes).
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
