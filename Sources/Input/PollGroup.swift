import CarouselCore
import CLinux
import Glibc

/// The descriptors of one input source gathered behind a single epoll descriptor, so the main
/// loop's epoll watches one constant fd per source even while devices come and go, plus an
/// eventfd that makes that fd readable when the source has events queued without any device
/// activity (the touch cancels and key releases of `suspend()`, a device removed).
final class PollGroup {
    /// The descriptor the main loop waits on (readable when any member is).
    let fd: Int32
    private let wakeFD: Int32
    private var members: Set<Int32> = []
    private var queued: [TimedInputEvent] = []

    init() throws {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw InputDeviceError.system("epoll_create1", errno) }
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wakeFD >= 0 else {
            let e = errno
            Glibc.close(fd)
            throw InputDeviceError.system("eventfd", e)
        }
        try add(wakeFD)
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(fd)
    }

    /// Watches `member` for input (`epoll_ctl(EPOLL_CTL_ADD)`).
    func add(_ member: Int32) throws {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue
        ev.data.fd = member
        guard epoll_ctl(fd, EPOLL_CTL_ADD, member, &ev) == 0 else { throw InputDeviceError.system("epoll_ctl(ADD)", errno) }
        members.insert(member)
    }

    /// Stops watching `member` (before it is closed).
    func remove(_ member: Int32) {
        guard members.remove(member) != nil else { return }
        var ev = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, member, &ev)
    }

    /// The members that are ready now (`epoll_wait` with timeout 0; never blocks). The wake
    /// eventfd is drained and not reported.
    func ready() -> [Int32] {
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        var out: [Int32] = []
        while true {
            let n = epoll_wait(fd, &events, Int32(events.count), 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            for i in 0..<Int(n) {
                let member = events[i].data.fd
                if member == wakeFD {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeFD, &value, 8)
                } else if !out.contains(member) {
                    out.append(member)
                }
            }
            if n < Int32(events.count) { break }
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
    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Takes the queued events.
    func takeQueued() -> [TimedInputEvent] {
        defer { queued.removeAll() }
        return queued
    }
}

/// The monotonic clock in seconds (the clock evdev and libinput timestamps use).
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Why a device source could not start.
public enum InputDeviceError: Error, CustomStringConvertible, Equatable {
    /// A system call failed: its name and errno.
    case system(String, Int32)
    /// libinput or libudev refused to set up (the message says what to check).
    case setup(String)

    public var description: String {
        switch self {
        case .system(let call, let e): return "\(call) failed: \(String(cString: strerror(e)))"
        case .setup(let message): return message
        }
    }
}
