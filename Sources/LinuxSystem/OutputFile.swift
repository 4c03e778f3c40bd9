#if canImport(Glibc)
import Glibc
#endif

/// A file created (or truncated) and written a piece at a time: standard output for `-`, else
/// `path` opened `O_WRONLY|O_CREAT|O_TRUNC`, mode 0644 (less the umask). Every failure is a
/// `FileWriteError` naming `path`. For the JSON-line outputs (`--events`, `--latency-trace`,
/// `record --out`).
public final class OutputFile {
    /// The path as given (`-` for standard output).
    public let path: String
    /// The file opened; nil for standard output (not ours to close).
    private let file: FileDescriptor?
    /// The descriptor written to.
    public var fd: Int32 { file?.raw ?? STDOUT_FILENO }

    /// Opens `path` (`-`: standard output, not closed by `close()`).
    public init(path: String) throws {
        self.path = path
        if path == "-" { file = nil; return }
        do { file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644) } catch {
            throw FileWriteError(path: path, step: .create, errno: error.errno)
        }
    }

    private var closed = false

    /// Writes all of `bytes` (a short write is continued); after `close()`, fails with `EBADF`.
    public func write(_ bytes: [UInt8]) throws(FileWriteError) {
        // Not the number: after close it may name a file opened since.
        guard !closed else { throw FileWriteError(path: path, step: .write, errno: EBADF) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buf in retryingOnEINTR { Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset) } }
            guard n > 0 else { throw FileWriteError(path: path, step: .write, errno: n == 0 ? EIO : errno) }
            offset += n
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws(FileWriteError) { try write(Array(text.utf8)) }

    /// Closes the file (not standard output); later writes fail with `EBADF`.
    public func close() {
        guard !closed else { return }
        closed = true
        file?.close()
    }
}
