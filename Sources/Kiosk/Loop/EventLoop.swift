import LinuxSystem

/// The kiosk's loop: one `Epoll` over every file descriptor that can wake the program, and a
/// handler per descriptor. Handlers run on the loop's thread, one at a time; nothing polls or
/// busy-waits.
public final class EventLoop {
    public typealias Handler = () -> Void
    private let epoll: Epoll
    private var handlers: [Int32: Handler] = [:]
    private var stopped = false
    /// How many times `epoll_wait` returned (a still kiosk wakes only for what it must do).
    public private(set) var wakeups = 0

    public init() throws {
        epoll = try Epoll(maxEvents: 32)
    }

    /// Calls `handler` whenever `fd` is readable (level-triggered). Replaces an earlier handler.
    public func watch(_ fd: Int32, _ handler: @escaping Handler) throws {
        if handlers[fd] == nil { try epoll.add(fd, events: .readable) } else { try epoll.modify(fd, events: .readable) }
        handlers[fd] = handler
    }

    /// Stops watching `fd` (it may already be closed).
    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        epoll.remove(fd)
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

    /// Runs handlers until `stop()`; `beforeWait` runs before each sleep (draw a frame there)
    /// and returns the longest the wait may last in milliseconds (-1: forever). An interrupted
    /// wait (EINTR) runs `beforeWait` again, which recomputes the timeout.
    public func run(beforeWait: () -> Int32 = { -1 }) {
        stopped = false
        while !stopped {
            let timeout = beforeWait()
            if stopped { break }
            let ready: [Epoll.Event]
            do { ready = try epoll.wait(timeout: timeout) } catch { break }
            wakeups += 1
            for event in ready {
                handlers[event.fd]?()
                if stopped { break }
            }
        }
    }

    /// Makes `run` return after the current handler.
    public func stop() { stopped = true }
}
