#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to `fd`: short writes are continued, EINTR is retried, a write that
/// takes nothing counts as `EIO`. Returns 0, or the `errno` of the write that failed. The one
/// write loop of the files the program makes (`AtomicFile`, `FileCopy`).
func writeWhole(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var written = 0
    while written < bytes.count {
        let n = retryingOnEINTR { Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written) }
        guard n > 0 else { return n == 0 ? EIO : errno }
        written += n
    }
    return 0
}
