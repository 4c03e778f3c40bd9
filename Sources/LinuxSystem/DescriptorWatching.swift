/// Where a component registers its descriptors and hears when they are ready: the program's
/// `Reactor`, or a `DescriptorPoller` where the component runs without it (tests, tools). A
/// component that manages many descriptors (the control socket's clients) registers each one
/// here instead of hiding a second epoll behind one descriptor.
public protocol DescriptorWatching: AnyObject {
    /// Calls `handler` with what is ready whenever `fd` is ready for `events` (level-triggered;
    /// errors and hang-ups are always reported). Replaces an earlier registration.
    func watch(_ fd: Int32, events: Epoll.Events, _ handler: @escaping (Epoll.Events) -> Void) throws
    /// Changes the events wanted on a watched `fd`.
    func modify(_ fd: Int32, events: Epoll.Events) throws
    /// Stops watching `fd` (it may already be closed).
    func unwatch(_ fd: Int32)
}

/// An `Epoll` with a handler per descriptor: what the `Reactor` waits with, and a
/// `DescriptorWatching` of its own for a component used without the program's reactor (its
/// owner calls `dispatchReady`, for instance after waiting on `fd`).
public final class DescriptorPoller: DescriptorWatching {
    private let epoll: Epoll
    private var handlers: [Int32: (Epoll.Events) -> Void] = [:]

    public init() throws {
        epoll = try Epoll(maxEvents: 32)
    }

    /// Readable when a watched descriptor is ready.
    public var fd: Int32 { epoll.fd }

    public func watch(_ fd: Int32, events: Epoll.Events, _ handler: @escaping (Epoll.Events) -> Void) throws {
        if handlers[fd] == nil { try epoll.add(fd, events: events) } else { try epoll.modify(fd, events: events) }
        handlers[fd] = handler
    }

    public func modify(_ fd: Int32, events: Epoll.Events) throws {
        try epoll.modify(fd, events: events)
    }

    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        epoll.remove(fd)
    }

    /// Waits up to `timeout` ms for a descriptor to be ready (0: not at all, -1: for ever; an
    /// interrupted wait returns with nothing ready) and runs the handlers of those ready — only
    /// those in `only` when given (level-triggered: the others are reported again by the next
    /// wait) — until `stop` says to stop. Throws when `epoll_wait` fails.
    public func dispatchReady(timeout: Int32 = 0, only: Set<Int32>? = nil, stop: () -> Bool = { false }) throws {
        for e in try epoll.wait(timeout: timeout) where only?.contains(e.fd) ?? true {
            handlers[e.fd]?(e.events)
            if stop() { return }
        }
    }
}
