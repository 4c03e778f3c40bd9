import Glibc
import LinuxSystem

/// `SUBJECT: CALL: errno text` (or `CALL: errno text` without a subject), for messages that
/// name what failed and on what: the description of the `SystemCallError` it would be.
func errnoMessage(_ call: String, subject: String = "", code: Int32 = errno) -> String {
    SystemCallError(call: call, errno: code, subject: subject).description
}
