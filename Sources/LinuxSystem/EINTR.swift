#if canImport(Glibc)
import Glibc
#endif

// The EINTR policy, the same for every wrapper in this module and every module that uses it:
//
// - a call that fails with EINTR was interrupted by a signal handler before it did anything, and
//   is made again (`retryingOnEINTR`, `SystemCall.check`): `read`, `write`, `send`, `recv`,
//   `accept`, `open`, `waitpid`, `epoll_ctl`, `timerfd_settime`, `inotify_add_watch`…;
// - a wait with a timeout is not simply made again (that would sleep the whole timeout anew):
//   `Epoll.wait` returns "nothing ready" on EINTR, so its caller recomputes its deadline (the
//   kiosk loop does that before every wait); `waitReadable` polls again for the time left;
// - `close` is never retried: Linux frees the descriptor even when it reports EINTR, and a retry
//   could close a descriptor another thread just opened.
//
// The kiosk blocks its signals and reads them from a signalfd, so EINTR is rare (a debugger,
// SIGSTOP/SIGCONT); the policy keeps such a stop from turning into a spurious error.

/// Calls `body` again while it returns a negative value with `errno == EINTR`; returns its last
/// result (with `errno` as the call left it when negative).
@discardableResult
@inlinable
public func retryingOnEINTR<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
        let r = body()
        if r < 0 && errno == EINTR { continue }
        return r
    }
}

/// Throwing wrappers for calls that return -1 and set `errno`.
public enum SystemCall {
    /// Runs `body` under the EINTR policy; throws `SystemCallError(call:subject:)` with the
    /// call's `errno` when it returns a negative value, else returns the result.
    @discardableResult
    @inlinable
    public static func check<T: BinaryInteger>(_ call: String, subject: String? = nil, _ body: () -> T) throws -> T {
        let r = retryingOnEINTR(body)
        if r < 0 { throw SystemCallError(call: call, errno: errno, subject: subject) }
        return r
    }
}
