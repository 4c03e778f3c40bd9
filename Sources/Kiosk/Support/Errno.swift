import Glibc

/// `SUBJECT: CALL: errno text` (or `CALL: errno text` without a subject), for messages that
/// name what failed and on what.
func errnoMessage(_ call: String, subject: String = "", code: Int32 = errno) -> String {
    let text = String(cString: strerror(code))
    return subject.isEmpty ? "\(call): \(text)" : "\(subject): \(call): \(text)"
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
