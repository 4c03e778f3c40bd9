import CLinux
import Foundation
import Glibc

/// Watches files for changes with inotify. It watches each file's folder (so an editor's atomic
/// rename, a delete and a re-create are all seen) and reports the watched paths that changed.
public final class FileWatcher {
    public let fd: Int32
    private var folders: [Int32: String] = [:]
    private var files: Set<String> = []

    public init() throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1", errno) }
    }

    deinit { Glibc.close(fd) }

    /// Replaces the set of watched files (absolute or relative paths).
    public func watch(paths: [String]) {
        for wd in folders.keys { inotify_rm_watch(fd, wd) }
        folders.removeAll()
        files = Set(paths.map { Self.absolute($0) })
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
        for folder in Set(files.map { ($0 as NSString).deletingLastPathComponent }) {
            let wd = inotify_add_watch(fd, folder, mask)
            if wd >= 0 { folders[wd] = folder }
        }
    }

    /// The watched files that changed since the last call.
    public func drain() -> Set<String> {
        var changed: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let base = raw.baseAddress! + offset
                    let wd = base.loadUnaligned(as: Int32.self)
                    let len = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                    let nameStart = base + MemoryLayout<inotify_event>.size
                    let name = len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                    if let folder = folders[wd] {
                        let path = (folder as NSString).appendingPathComponent(name)
                        if files.contains(path) { changed.insert(path) }
                    }
                    offset += MemoryLayout<inotify_event>.size + len
                }
            }
        }
        return changed
    }

    static func absolute(_ p: String) -> String {
        let abs = p.hasPrefix("/") ? p : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(p)
        return (abs as NSString).standardizingPath
    }
}
