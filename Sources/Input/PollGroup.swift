import CarouselCore
import LinuxSystem

/// The descriptors of one input source gathered behind a single epoll descriptor, so the main
/// loop's epoll watches one constant fd per source even while devices come and go, plus an
/// eventfd that makes that fd readable when the source has events queued without any device
/// activity (the touch cancels and key releases of `suspend()`, a device removed).
final class PollGroup {
    /// The descriptor the main loop waits on (readable when any member is).
    var fd: Int32 { epoll.fd }
    private let epoll: Epoll
    private let wakeCounter: EventFD
    private var members: Set<Int32> = []
    private var queued: [TimedInputEvent] = []

    init() throws {
        epoll = try Epoll(maxEvents: 16)
        wakeCounter = try EventFD()
        try epoll.add(wakeCounter.fd, events: .readable)
    }

    /// Watches `member` for input (`epoll_ctl(EPOLL_CTL_ADD)`).
    func add(_ member: Int32) throws {
        try epoll.add(member, events: .readable)
        members.insert(member)
    }

    /// Stops watching `member` (before it is closed).
    func remove(_ member: Int32) {
        guard members.remove(member) != nil else { return }
        epoll.remove(member)
    }

    /// The members that are ready now (`epoll_wait` with timeout 0; never blocks). The wake
    /// eventfd is drained and not reported.
    func ready() -> [Int32] {
        var out: [Int32] = []
        while true {
            guard let events = try? epoll.wait(timeout: 0), !events.isEmpty else { break }
            for e in events {
                if e.fd == wakeCounter.fd {
                    wakeCounter.reset()
                } else if !out.contains(e.fd) {
                    out.append(e.fd)
                }
            }
            if events.count < epoll.maxEvents { break }
        }
        return out
    }

    /// Queues events to be returned by the next read, and makes `fd` readable.
    func enqueue(_ events: [TimedInputEvent]) {
        guard !events.isEmpty else { return }
        queued += events
        wake()
    }

    /// Makes `fd` readable so the owner is read soon (work is pending inside a library).
    func wake() { wakeCounter.signal() }

    /// Takes the queued events.
    func takeQueued() -> [TimedInputEvent] {
        defer { queued.removeAll() }
        return queued
    }
}

/// Why a device source could not start.
/// A failed system call throws `SystemCallError` (LinuxSystem) instead.
public enum InputDeviceError: Error, CustomStringConvertible, Equatable {
    /// libinput or libudev refused to set up (the message says what to check).
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}
