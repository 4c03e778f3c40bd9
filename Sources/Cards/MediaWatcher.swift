import CCardLibs
import Foundation

/// inotify on the folders that hold item images (and the items folder), so a picture replaced
/// on disk — written in place or renamed over — is drawn again. Folders are watched rather
/// than files, so atomic replacements (write a temp file, rename it over) are seen too. Add
/// `fd` to the loop's epoll; when readable, `drainChangedPaths()` says which files changed,
/// for `CardPipeline.invalidate(paths:)`; `folderChanged` says a file came or went (re-list
/// an items folder).
public final class MediaWatcher {
    public let fd: Int32
    private var watches: [Int32: String] = [:]

    public init() throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw CardFailure(file: "inotify", reason: String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// Watches the folders of `paths` (files) plus `folders`; replaces what was watched.
    /// Folders that do not exist are skipped (and reported back).
    /// Folders still watched keep their watch (and the events already queued on it: removing
    /// and adding every watch lost the events of files changed meanwhile — a folder emptied
    /// file by file was seen with one file left, Tests/vm/fault-media.sh); a folder that was
    /// replaced by another at the same path (deleted and made again) gets a watch on the new one.
    @discardableResult
    public func watch(files paths: [String], folders: [String] = []) -> [String] {
        let dirs = Set(paths.map { (($0 as NSString).standardizingPath as NSString).deletingLastPathComponent }
                       + folders.map { ($0 as NSString).standardizingPath })
        var skipped: [String] = []
        var next: [Int32: String] = [:]
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        for dir in dirs.sorted() {
            // The same folder (inode) gives back the watch it has.
            let wd = inotify_add_watch(fd, dir, mask)
            if wd >= 0 { next[wd] = dir } else { skipped.append(dir) }
        }
        for wd in watches.keys where next[wd] == nil { inotify_rm_watch(fd, wd) }
        watches = next
        return skipped
    }

    /// Files created, written, renamed or deleted in watched folders since the last call.
    public private(set) var folderChanged = false

    /// Reads every pending event; returns the full paths that changed (each once).
    public func drainChangedPaths() -> [String] {
        folderChanged = false
        var changed: [String] = []
        var seen: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let wd = raw.load(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let len = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(n, nameStart + len)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    if let dir = watches[wd], !name.isEmpty {
                        let path = (dir as NSString).appendingPathComponent(name)
                        // A file written in place is created empty and filled afterwards: its
                        // IN_CREATE only says a file came (folderChanged); its contents count
                        // from IN_CLOSE_WRITE. Reporting it at IN_CREATE made the kiosk reload an
                        // empty config (a valid one with no items) — Tests/vm/fault-config.sh.
                        // A folder is complete when it is made: its IN_CREATE counts (an items
                        // folder deleted and made again must be watched anew).
                        let folderMade = mask & UInt32(IN_CREATE) != 0 && mask & UInt32(IN_ISDIR) != 0
                        let contentChanged = folderMade || mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB) != 0
                        if contentChanged, seen.insert(path).inserted { changed.append(path) }
                        if mask & UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM) != 0 { folderChanged = true }
                    }
                    offset = nameStart + len
                }
            }
        }
        return changed
    }
}
