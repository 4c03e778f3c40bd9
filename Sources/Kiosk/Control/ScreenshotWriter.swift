import Display
import Glibc
import LinuxSystem
import Raster

/// Writes the current frame as a PNG file for the `screenshot` command.
///
/// Atomic: the bytes go to a temporary file in the same folder (`O_EXCL`, mode 0644), are
/// flushed with `fsync`, and only then renamed over the target, so a reader never sees half a
/// file and a failure (disk full, read-only folder, missing folder) leaves no debris and no
/// truncated target. Every failure is a `SystemCallError` naming the path the client asked for
/// (not the temporary name), the call and its `errno`: `/data/shot.png: write: No space left on
/// device`.
public enum ScreenshotWriter {
    /// Encodes `canvas` with `PNGEncoder` and writes it to `path` atomically.
    public static func write(_ canvas: Canvas, to path: String) throws {
        try write(bytes: PNGEncoder.encode(canvas), to: path)
    }

    /// Writes `bytes` to `path` atomically (see above).
    public static func write(bytes: [UInt8], to path: String) throws {
        let dir = UnixListener.parent(of: path)
        let temporary = "\(dir)/.\(UnixListener.basename(of: path)).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemCallError(call: "open", subject: path) }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in retryingOnEINTR { Glibc.write(fd, buf.baseAddress! + written, buf.count - written) } }
            guard n > 0 else {
                let code = errno
                close(fd)
                throw SystemCallError(call: "write", errno: n == 0 ? EIO : code, subject: path)
            }
            written += n
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            throw SystemCallError(call: "fsync", errno: code, subject: path)
        }
        guard close(fd) == 0 else { throw SystemCallError(call: "close", subject: path) }
        guard rename(temporary, path) == 0 else { throw SystemCallError(call: "rename", subject: path) }
        ok = true
    }
}
