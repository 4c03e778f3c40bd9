import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An `inotify` instance: watches on files and folders, and the events they produced, read as
/// values. Non-blocking, close-on-exec. What to watch and what an event means is the caller's
/// policy (`MediaWatcher` in Cards).
public final class Inotify {
    /// Event kinds (`IN_…`), for `addWatch` and in events.
    public struct Mask: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `IN_CLOSE_WRITE`: a file opened for writing was closed.
        public static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
        /// `IN_MOVED_TO`: a file was renamed into the folder.
        public static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
        /// `IN_MOVED_FROM`: a file was renamed out of the folder.
        public static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
        /// `IN_CREATE`: a file or folder was created.
        public static let create = Mask(rawValue: UInt32(IN_CREATE))
        /// `IN_DELETE`: a file or folder was deleted.
        public static let delete = Mask(rawValue: UInt32(IN_DELETE))
        /// `IN_ATTRIB`: metadata changed (permissions, timestamps, link count).
        public static let attrib = Mask(rawValue: UInt32(IN_ATTRIB))
        /// `IN_ISDIR` (in events only): the subject is a folder.
        public static let isDirectory = Mask(rawValue: UInt32(IN_ISDIR))
        /// `IN_IGNORED` (in events only): the watch was removed.
        public static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
        /// `IN_Q_OVERFLOW` (in events only): events were lost.
        public static let overflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    /// One event: the watch it came from, what happened, and the name inside a watched folder
    /// (empty for the watched object itself).
    public struct Event: Equatable, Sendable {
        /// The watch descriptor `addWatch` returned.
        public var watch: Int32
        /// What happened (`IN_ISDIR` set when the subject is a folder).
        public var mask: Mask
        /// Pairs the `movedFrom` and `movedTo` events of one rename (0 otherwise).
        public var cookie: UInt32
        /// The file's name inside the watched folder (empty for the watched object itself).
        public var name: String
        public init(watch: Int32, mask: Mask, cookie: UInt32 = 0, name: String) {
            self.watch = watch; self.mask = mask; self.cookie = cookie; self.name = name
        }
    }

    /// The descriptor to watch for reading.
    public var fd: Int32 { descriptor.raw }
    private let descriptor: FileDescriptor

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    public init() throws {
        descriptor = try FileDescriptor.check("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }


    /// `inotify_add_watch`: the watch descriptor (the same one again for an object already
    /// watched, whose mask is replaced). Throws with `path` as the subject.
    @discardableResult
    public func addWatch(_ path: String, mask: Mask) throws -> Int32 {
        try SystemCall.check("inotify_add_watch", subject: path) { inotify_add_watch(fd, path, mask.rawValue) }
    }

    /// `inotify_rm_watch` (errors ignored: the object may be gone, which removed the watch).
    public func removeWatch(_ watch: Int32) {
        _ = inotify_rm_watch(fd, watch)
    }

    /// Reads every pending event (none when nothing is pending; never blocks).
    public func readEvents() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in retryingOnEINTR { Glibc.read(fd, raw.baseAddress, raw.count) } }
            guard n > 0 else { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + header <= n {
                    let wd = raw.load(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let cookie = raw.load(fromByteOffset: offset + 8, as: UInt32.self)
                    let len = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + header
                    let nameBytes = raw[nameStart..<min(n, nameStart + len)].prefix { $0 != 0 }
                    events.append(Event(watch: wd, mask: Mask(rawValue: mask), cookie: cookie,
                                        name: String(decoding: nameBytes, as: UTF8.self)))
                    offset = nameStart + len
                }
            }
        }
        return events
    }
}
