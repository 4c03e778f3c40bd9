#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

/// Reads image files with reasons a person can act on (missing, empty, a folder, too big,
/// unreadable) instead of a bare failure.
enum ImageFile {
    /// The whole file, at most `limits.maxFileBytes` long.
    static func read(_ path: String, limits: ImageLimits) throws -> [UInt8] {
        let fd = retryingOnEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            throw CardFailure(file: path, errno: errno)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CardFailure(file: path, errno: errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw CardFailure(file: path, reason: "is a folder, not an image file")
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            throw CardFailure(file: path, reason: "is not a regular file")
        }
        let size = Int(st.st_size)
        if size == 0 { throw CardFailure(file: path, reason: "file is empty (0 bytes)") }
        if size > limits.maxFileBytes {
            throw CardFailure(file: path, reason: "file is \(size >> 20) MB, above the \(limits.maxFileBytes >> 20) MB limit")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { buf in retryingOnEINTR { Glibc.read(fd, buf.baseAddress! + done, size - done) } }
            if n < 0 { throw CardFailure(file: path, errno: errno) }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        if bytes.isEmpty { throw CardFailure(file: path, reason: "file is empty (0 bytes)") }
        return bytes
    }

    /// `CardFailure.reason` for a failed read: the usual causes in words, others with the C text.
    static func describe(errno e: Int32) -> String {
        switch e {
        case ENOENT: return "file not found"
        case EACCES, EPERM: return "permission denied (the kiosk user cannot read it)"
        case ENOTDIR: return "a folder in the path does not exist"
        case EISDIR: return "is a folder, not an image file"
        default: return "cannot read: \(SystemCallError.message(for: e))"
        }
    }
}
