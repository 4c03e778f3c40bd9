import Foundation
import Glibc
import LinuxSystem

/// A file replaced whole: readers see the old content or the new, never a part (the metrics
/// file, a USB import's status).
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `bytes` to `path` through a temporary file in its folder, fsync and rename. The error
    /// says the call and the cause (`open: No such file or directory`); the caller names the path.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let temporary = "\(dir.isEmpty ? "." : dir)/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        unlink(temporary)   // ours by its name: left by a write that was cut short
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: errnoMessage("open")) }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        func fail(_ call: String, _ code: Int32 = errno) -> Failure {
            close(fd)
            return Failure(description: errnoMessage(call, code: code))
        }
        guard fchmod(fd, 0o644) == 0 else { throw fail("fchmod") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in retryingOnEINTR { Glibc.write(fd, buf.baseAddress! + written, buf.count - written) } }
            guard n > 0 else { throw fail("write", n == 0 ? EIO : errno) }
            written += n
        }
        guard fsync(fd) == 0 else { throw fail("fsync") }
        guard close(fd) == 0 else { throw Failure(description: errnoMessage("close")) }
        guard rename(temporary, path) == 0 else { throw Failure(description: errnoMessage("rename")) }
        ok = true
    }
}
