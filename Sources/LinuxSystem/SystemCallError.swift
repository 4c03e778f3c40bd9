#if canImport(Glibc)
import Glibc
#endif

/// The one error for a failed system call in every module: which call, the `errno` it gave,
/// and optionally what it was called on (a file or socket path), so a message names all three.
///
/// `description` is `CALL: strerror` (`epoll_create1: Too many open files`), or
/// `SUBJECT: CALL: strerror` with a subject (`/run/kiosk/control.sock: bind: Permission denied`).
public struct SystemCallError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, as the C library names it (`epoll_ctl`, `open /dev/dri/card0`).
    public var call: String
    /// The `errno` value it failed with.
    public var errno: Int32
    /// What the call was made on (a path, a device), or nil.
    public var subject: String?

    /// The error `call` gave with `errno` (the thread's current `errno` by default).
    public init(call: String, errno: Int32 = Glibc.errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// `strerror(errno)`: the C library's text for the code.
    public var message: String { Self.message(for: errno) }

    /// The C library's text for `errno` (`strerror`): the one place an error code becomes words.
    /// Every error that carries an errno keeps the number and calls this only when printed.
    public static func message(for errno: Int32) -> String { String(cString: strerror(errno)) }

    /// `SUBJECT: CALL: strerror`, or `CALL: strerror` without a subject.
    public var description: String {
        if let subject, !subject.isEmpty { return "\(subject): \(call): \(message)" }
        return "\(call): \(message)"
    }
}
