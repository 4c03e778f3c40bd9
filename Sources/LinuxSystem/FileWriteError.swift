#if canImport(Glibc)
import Glibc
#endif

/// The one error for a file the program writes (`simulate --shot`, `screenshot`, `--events`,
/// `--latency-trace`, `record --out`, the metrics file, …): the path as the user gave it, what
/// could not be done, and the `errno` it failed with, kept as a number until printed.
///
/// `description` is `PATH: reason (strerror)`:
/// `out/missing/a.png: cannot create the file (No such file or directory)`. The path is always
/// the target's, never that of a temporary file the writer used on the way.
public struct FileWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What could not be done to the file.
    public enum Step: String, Sendable {
        case create = "cannot create the file"
        case write = "cannot write the file"
        case flush = "cannot flush the file to disk"
        case replace = "cannot put the new file in place"
    }

    /// The file as the user named it.
    public var path: String
    public var step: Step
    /// The `errno` value the failing call gave.
    public var errno: Int32

    /// The error of `step` on `path` with `errno` (the thread's current `errno` by default).
    public init(path: String, step: Step, errno: Int32 = Glibc.errno) {
        self.path = path
        self.step = step
        self.errno = errno
    }

    /// `strerror(errno)`.
    public var reason: String { SystemCallError.message(for: errno) }

    /// `PATH: reason (strerror)`.
    public var description: String { "\(path): \(step.rawValue) (\(reason))" }
}
