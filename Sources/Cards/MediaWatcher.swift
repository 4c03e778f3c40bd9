import Foundation
import KioskConfig
import LinuxSystem

/// inotify on the folders that hold item images (and the items folder), so a picture replaced
/// on disk — written in place or renamed over — is drawn again. Folders are watched rather
/// than files, so atomic replacements (write a temp file, rename it over) are seen too. Add
/// `fd` to the loop's epoll; when readable, `drainChangedPaths()` says which files changed,
/// for `CardPipeline.invalidate(paths:)`; `folderChanged` says a file came or went (re-list
/// an items folder).
public final class MediaWatcher {
    private let inotify: Inotify
    /// The descriptor the loop watches.
    public var fd: Int32 { inotify.fd }
    private var watches: [Int32: String] = [:]

    /// Throws `SystemCallError` when no inotify instance can be made (the per-user limit).
    public init() throws {
        inotify = try Inotify()
    }

    /// Watches the folders of `paths` (files) plus `folders`; replaces what was watched.
    /// Folders that do not exist are skipped (and reported back).
    /// Folders still watched keep their watch (and the events already queued on it: removing
    /// and adding every watch lost the events of files changed meanwhile — a folder emptied
    /// file by file was seen with one file left, Tests/vm/fault-media.sh); a folder that was
    /// replaced by another at the same path (deleted and made again) gets a watch on the new one.
    @discardableResult
    public func watch(files paths: [String], folders: [String] = []) -> [String] {
        let dirs = Set(paths.map { (PathResolver.standardized($0) as NSString).deletingLastPathComponent }
                       + folders.map { PathResolver.standardized($0) })
        var skipped: [String] = []
        var next: [Int32: String] = [:]
        let mask: Inotify.Mask = [.closeWrite, .movedTo, .movedFrom, .create, .delete, .attrib]
        for dir in dirs.sorted() {
            // The same folder (inode) gives back the watch it has.
            if let wd = try? inotify.addWatch(dir, mask: mask) { next[wd] = dir } else { skipped.append(dir) }
        }
        for wd in watches.keys where next[wd] == nil { inotify.removeWatch(wd) }
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
        for event in inotify.readEvents() {
            guard let dir = watches[event.watch], !event.name.isEmpty else { continue }
            let path = (dir as NSString).appendingPathComponent(event.name)
            // A file written in place is created empty and filled afterwards: its IN_CREATE only
            // says a file came (folderChanged); its contents count from IN_CLOSE_WRITE. Reporting
            // it at IN_CREATE made the kiosk reload an empty config (a valid one with no items) —
            // Tests/vm/fault-config.sh. A folder is complete when it is made: its IN_CREATE counts
            // (an items folder deleted and made again must be watched anew).
            let folderMade = event.mask.isSuperset(of: [.create, .isDirectory])
            let contentChanged = folderMade || !event.mask.isDisjoint(with: [.closeWrite, .movedTo, .movedFrom, .delete, .attrib])
            if contentChanged, seen.insert(path).inserted { changed.append(path) }
            if !event.mask.isDisjoint(with: [.create, .delete, .movedTo, .movedFrom]) { folderChanged = true }
        }
        return changed
    }
}
