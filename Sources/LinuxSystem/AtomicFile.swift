#if canImport(Glibc)
import Glibc
#endif

/// A file replaced whole: readers see the old content or the new, never a part (PNG shots and
/// screenshots, the metrics file, a USB import's status).
///
/// The bytes go to a temporary file in the same folder (`O_EXCL`, mode 0644 whatever the umask),
/// are flushed with `fsync`, and only then renamed over the target (the folder flushed after), so a failure (disk full,
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
        let file: FileDescriptor
        do { file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644) } catch {
            throw FileWriteError(path: path, step: .create, errno: error.errno)
        }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        func fail(_ step: FileWriteError.Step, _ code: Int32 = errno) -> FileWriteError {
            file.close()
            return FileWriteError(path: path, step: step, errno: code)
        }
        guard fchmod(file.raw, 0o644) == 0 else { throw fail(.create) }
        let failed = bytes.withUnsafeBytes { writeWhole(file.raw, $0) }
        guard failed == 0 else { throw fail(.write, failed) }
        guard fsync(file.raw) == 0 else { throw fail(.flush) }
        guard file.close() == 0 else { throw FileWriteError(path: path, step: .flush) }
        guard rename(temporary, path) == 0 else { throw FileWriteError(path: path, step: .replace) }
        ok = true
        // The rename itself on disk too: without this a power cut soon after can bring back the
        // old content (an import's status.json said "copying" after one, its copy done).
        do { try FileCopy.syncFolder(folder.isEmpty ? "." : folder) } catch {
            throw FileWriteError(path: path, step: .flush, errno: error.errno)
        }
    }
}
