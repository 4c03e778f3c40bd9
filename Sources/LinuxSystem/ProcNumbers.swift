#if canImport(Glibc)
import Glibc
#endif

/// Small `/proc` files read and taken apart on their bytes, without Foundation's file reading
/// or `String`'s generic splitting: the start-up line reads `/proc/self/stat` and
/// `/proc/thread-self/schedstat` before the first frame, where those cost milliseconds under
/// emulation (docs/start-up.md, stop 51).
public enum ProcNumbers {
    /// The file's first `capacity` bytes (a `/proc` file is read in one `read`); nil when it
    /// cannot be opened or read, or is empty.
    public static func read(_ path: String, capacity: Int = 1024) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        buffer.removeSubrange(n...)
        return buffer
    }

    /// The fields of `bytes`, separated by runs of spaces, tabs and newlines.
    public static func fields(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start: Int?
        for i in bytes.indices {
            let separator = bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09
            if separator {
                if let s = start { out.append(bytes[s..<i]); start = nil }
            } else if start == nil {
                start = i
            }
        }
        if let s = start { out.append(bytes[s..<bytes.endIndex]) }
        return out
    }

    /// `field` as a decimal number without a sign; nil when it is empty, holds anything but
    /// digits, or does not fit 64 bits.
    public static func unsigned(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard !field.isEmpty else { return nil }
        var value: UInt64 = 0
        for b in field {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(b - 0x30))
            guard !o1 && !o2 else { return nil }
            value = sum
        }
        return value
    }
}
