#if canImport(Glibc)
import Glibc
#endif

/// Files copied whole and flushed to disk (a USB stick's content into the kiosk's content
/// folder, docs/usb.md): what `AtomicFile` does for bytes in memory, for a file too large to hold.
///
/// Each copy is a new file (`O_EXCL`, mode 0644) written with the same loop as `AtomicFile`
/// (`writeWhole`) and `fsync`-ed; the caller copies into a folder of its own and makes it current
/// with one `rename`, as `AtomicFile` renames its temporary file. Every failure is a
/// `SystemCallError` whose subject is the file the call was made on (the source for `open` and
/// `read`, the target otherwise), its errno kept as a number until printed.
public enum FileCopy {
    /// Copies `source` to the new file `target` through `buffer` (whose size is the read size),
    /// then `fsync`s `target`. Returns the number of bytes copied.
    @discardableResult
    public static func copy(_ source: String, to target: String, buffer: inout [UInt8]) throws(SystemCallError) -> Int64 {
        let input = try FileDescriptor.open(source, O_RDONLY)
        let output = try FileDescriptor.open(target, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { b in retryingOnEINTR { read(input.raw, b.baseAddress!, b.count) } }
            if n == 0 { break }
            guard n > 0 else { throw SystemCallError(call: "read", subject: source) }
            let failed = buffer.withUnsafeBytes { b in writeWhole(output.raw, UnsafeRawBufferPointer(rebasing: b[..<n])) }
            guard failed == 0 else { throw SystemCallError(call: "write", errno: failed, subject: target) }
            total += Int64(n)
        }
        guard fsync(output.raw) == 0 else { throw SystemCallError(call: "fsync", subject: target) }
        return total
    }

    /// `fsync`s the folder `path`, so the names made in it (copies, a rename) are on disk too.
    public static func syncFolder(_ path: String) throws(SystemCallError) {
        let folder = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        guard fsync(folder.raw) == 0 else { throw SystemCallError(call: "fsync", subject: path) }
    }
}
