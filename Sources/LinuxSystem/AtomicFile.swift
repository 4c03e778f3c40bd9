#if canImport(Glibc)
import Glibc
#endif

/// A file replaced whole: readers see the old content or the new, never a part (PNG shots and
/// screenshots, the metrics file, a USB import's status).
///
/// The bytes go to a temporary file in the same folder (`O_EXCL`, mode 0644 whatever the umask),
/// are flushed with `fsync`, and only then renamed over the target, so a failure (disk full,
/// read-only folder, missing folder) leaves no debris and no truncated target. Every failure is
/// a `FileWriteError` naming the target, never the temporary file. A file too large to hold in
/// memory is copied with `FileCopy`, which writes with the same loop (`writeWhole`).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically (see above).
    public static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder).\(name).\(getpid()).tmp"
        unlink(temporary)   // ours by its name: left by a write that was cut short
        let fd = retryingOnEINTR { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw FileWriteError(path: path, step: .create) }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        func fail(_ step: FileWriteError.Step, _ code: Int32 = errno) -> FileWriteError {
            Glibc.close(fd)
            return FileWriteError(path: path, step: step, errno: code)
        }
        guard fchmod(fd, 0o644) == 0 else { throw fail(.create) }
        let failed = bytes.withUnsafeBytes { writeWhole(fd, $0) }
        guard failed == 0 else { throw fail(.write, failed) }
        guard fsync(fd) == 0 else { throw fail(.flush) }
        guard Glibc.close(fd) == 0 else { throw FileWriteError(path: path, step: .flush) }
        guard rename(temporary, path) == 0 else { throw FileWriteError(path: path, step: .replace) }
        ok = true
    }
}
