import Glibc

/// `sockaddr_un` for a path, or for an abstract socket written `@name` (Linux: the name
/// follows a NUL byte and has no terminator). The control socket binds with it, the systemd
/// notifier sends with it, and `check-config` refuses a `[control] socket` longer than
/// `maxPathBytes`.
public enum UnixSocketAddress {
    /// `sun_path` holds 108 bytes including the terminating NUL of a path.
    public static let maxPathBytes = 107

    /// Calls `body` with the address and its exact length. Longer paths are cut at
    /// `maxPathBytes`: callers check the length first.
    public static func with<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8.prefix(maxPathBytes))
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        return withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
