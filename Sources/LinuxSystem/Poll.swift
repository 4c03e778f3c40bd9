#if canImport(Glibc)
import Glibc
#endif

/// `poll(2)` for POLLIN on one descriptor: true when `fd` is readable within `timeout` seconds
/// (0: do not wait). An interruption (EINTR) polls again for the time that is left.
public func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let deadline = MonotonicClock.now() + max(0, timeout)
    while true {
        let left = max(0, deadline - MonotonicClock.now())
        let r = poll(&p, 1, Int32(min((left * 1000).rounded(.up), 1e9)))
        if r > 0 { return p.revents & Int16(POLLIN) != 0 }
        if r == 0 || errno != EINTR { return false }
    }
}
