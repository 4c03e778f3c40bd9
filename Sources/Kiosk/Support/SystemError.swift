import Glibc

/// A failed system call: which call, on what, and the `errno` text.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The C call that failed, such as `bind`.
    public var call: String
    /// What it was called on (a path, a pid), or empty.
    public var subject: String
    /// The `errno` value.
    public var code: Int32

    public init(_ call: String, subject: String = "", code: Int32 = errno) {
        self.call = call; self.subject = subject; self.code = code
    }

    public var description: String {
        let text = String(cString: strerror(code))
        return subject.isEmpty ? "\(call): \(text)" : "\(subject): \(call): \(text)"
    }
}

/// Calls `body` again while it fails with `EINTR`; returns its last result.
@discardableResult
func retryingOnEINTR<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
        let r = body()
        if r < 0 && errno == EINTR { continue }
        return r
    }
}
