import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An `epoll` instance: a set of descriptors and the events wanted on each, and a wait for any
/// of them. Level-triggered; the data of each registration is its descriptor. Close-on-exec.
///
/// The primitive under the program's `Reactor` (and a `DescriptorPoller` used without one). Not
/// thread-safe: one owner thread.
public final class Epoll {
    /// What to wait for on a descriptor, and what a wait reports.
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `EPOLLIN`: data to read (or a listening socket has a connection).
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        /// `EPOLLOUT`: room to write.
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        /// `EPOLLPRI`: urgent data (a CEC adapter's events).
        public static let priority = Events(rawValue: EPOLLPRI.rawValue)
        /// `EPOLLERR` (always reported, need not be asked for).
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        /// `EPOLLHUP` (always reported, need not be asked for).
        public static let hangUp = Events(rawValue: EPOLLHUP.rawValue)
    }

    /// One ready descriptor from `wait`.
    public struct Event: Equatable, Sendable {
        /// The member that is ready.
        public var fd: Int32
        /// What it is ready for (or that it failed or hung up).
        public var events: Events
        public init(fd: Int32, events: Events) { self.fd = fd; self.events = events }
    }

    /// The epoll descriptor (itself pollable: readable when a member is ready).
    public var fd: Int32 { descriptor.raw }
    private let descriptor: FileDescriptor
    private var buffer: [epoll_event]

    /// `epoll_create1(EPOLL_CLOEXEC)`; `maxEvents` bounds how many events one `wait` returns.
    public init(maxEvents: Int = 32) throws {
        descriptor = try FileDescriptor.check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        buffer = [epoll_event](repeating: epoll_event(), count: max(1, maxEvents))
    }


    /// `epoll_ctl(EPOLL_CTL_ADD)`: watches `member` for `events`.
    public func add(_ member: Int32, events: Events = .readable) throws {
        try control(EPOLL_CTL_ADD, member, events, "epoll_ctl(ADD, \(member))")
    }

    /// `epoll_ctl(EPOLL_CTL_MOD)`: changes the events wanted on a member.
    public func modify(_ member: Int32, events: Events) throws {
        try control(EPOLL_CTL_MOD, member, events, "epoll_ctl(MOD, \(member))")
    }

    /// `epoll_ctl(EPOLL_CTL_DEL)`: stops watching `member`. Errors are ignored (the descriptor
    /// may already be closed, which removed it).
    public func remove(_ member: Int32) {
        var ev = epoll_event()
        _ = retryingOnEINTR { epoll_ctl(fd, EPOLL_CTL_DEL, member, &ev) }
    }

    /// `epoll_wait`: the members that are ready, waiting at most `timeout` milliseconds (-1:
    /// until one is; 0: never blocks). An interruption by a signal (EINTR) returns no events,
    /// so the caller recomputes its timeout (see the EINTR policy in `EINTR.swift`).
    public func wait(timeout: Int32) throws -> [Event] {
        // `&buffer`, not `withUnsafeMutableBufferPointer`'s optional base address: the C
        // parameter is imported as non-optional on aarch64 (epoll_event is not packed there).
        let count = Int32(buffer.count)
        let n = epoll_wait(fd, &buffer, count, timeout)
        if n < 0 {
            if errno == EINTR { return [] }
            throw SystemCallError(call: "epoll_wait")
        }
        return (0..<Int(n)).map { Event(fd: buffer[$0].data.fd, events: Events(rawValue: buffer[$0].events)) }
    }

    /// How many events one `wait` can return.
    public var maxEvents: Int { buffer.count }

    private func control(_ op: Int32, _ member: Int32, _ events: Events, _ call: String) throws {
        var ev = epoll_event()
        ev.events = events.rawValue
        ev.data.fd = member
        try SystemCall.check(call) { epoll_ctl(fd, op, member, &ev) }
    }
}
