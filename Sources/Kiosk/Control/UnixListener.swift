import Glibc
import LinuxSystem

/// A listening unix stream socket at a path, created the careful way:
///
/// - the parent folder is created with mode 0700 when missing (an existing one is left as is);
/// - a socket file already at the path is replaced only when nobody answers on it (stale, left
///   by a crash); a live socket or anything that is not a socket is an error;
/// - the socket is bound under a temporary name with umask 0177, made 0600 (owner only), then
///   renamed over the path, so the path never points at a socket with looser permissions;
/// - non-blocking, close-on-exec.
/// A path starting with `@` is not supported (abstract sockets have no permissions).
final class UnixListener {
    let path: String
    private(set) var fd: Int32 = -1
    private var boundDevice: UInt64 = 0
    private var boundInode: UInt64 = 0

    static let maxPathBytes = UnixSocketAddress.maxPathBytes

    init(path: String, backlog: Int32 = 16) throws {
        self.path = path
        guard path.hasPrefix("/") else { throw ControlServerError("\(path): the control socket path must be absolute") }
        guard path.utf8.count <= Self.maxPathBytes else {
            throw ControlServerError("\(path): longer than \(Self.maxPathBytes) bytes, too long for a unix socket")
        }
        let dir = Self.parent(of: path)
        try Self.makeDirectories(dir)
        try Self.clearStaleSocket(path)

        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", subject: path) }
        var temporary = "\(dir)/.\(Self.basename(of: path)).\(getpid()).tmp"
        if temporary.utf8.count > Self.maxPathBytes { temporary = path }
        unlink(temporary)
        let oldMask = umask(0o177)
        let bound = UnixSocketAddress.with(temporary) { bind(fd, $0, $1) }
        let bindErrno = errno
        umask(oldMask)
        do {
            guard bound == 0 else { throw SystemCallError(call: "bind", errno: bindErrno, subject: temporary) }
            guard chmod(temporary, 0o600) == 0 else { throw SystemCallError(call: "chmod", subject: temporary) }
            guard listen(fd, backlog) == 0 else { throw SystemCallError(call: "listen", subject: temporary) }
            if temporary != path {
                guard rename(temporary, path) == 0 else { throw SystemCallError(call: "rename", subject: path) }
            }
            var st = stat()
            guard lstat(path, &st) == 0 else { throw SystemCallError(call: "lstat", subject: path) }
            boundDevice = UInt64(st.st_dev); boundInode = UInt64(st.st_ino)
        } catch {
            Glibc.close(fd); fd = -1
            unlink(temporary)
            throw error
        }
    }

    /// Accepts one pending connection (non-blocking, close-on-exec); nil when none is waiting.
    func accept() -> Int32? {
        // accept4 is not in Swift's Glibc module; the loop thread is the only one that spawns,
        // and spawned children close every inherited descriptor anyway.
        let c = retryingOnEINTR { Glibc.accept(fd, nil, nil) }
        guard c >= 0 else { return nil }
        _ = fcntl(c, F_SETFD, FD_CLOEXEC)
        _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
        return c
    }

    /// Closes the socket and removes its file, if the file is still ours.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        var st = stat()
        if lstat(path, &st) == 0, UInt64(st.st_dev) == boundDevice, UInt64(st.st_ino) == boundInode { unlink(path) }
    }

    deinit { close() }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    static func basename(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Creates `dir` and any missing ancestors with mode 0700.
    static func makeDirectories(_ dir: String) throws {
        var st = stat()
        if stat(dir, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else { throw ControlServerError("\(dir): exists and is not a folder") }
            return
        }
        try makeDirectories(parent(of: dir))
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw SystemCallError(call: "mkdir", subject: dir)
        }
    }

    /// Removes a socket file nobody listens on; refuses to touch a live socket or a non-socket.
    static func clearStaleSocket(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard st.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlServerError("\(path): exists and is not a socket; remove it or choose another [control] socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw SystemCallError(call: "socket", subject: path) }
        defer { Glibc.close(probe) }
        let r = UnixSocketAddress.with(path) { connect(probe, $0, $1) }
        if r == 0 { throw ControlServerError("\(path): another program is listening there (is kiosk-carousel already running?)") }
        // ECONNREFUSED: a socket file without a listener, left behind by a crash. Replaced by the rename.
    }
}

/// The control socket could not be set up for a reason other than a failed system call (those
/// throw `SystemCallError` with the socket's path as its subject): the path is unusable or taken.
public struct ControlServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
