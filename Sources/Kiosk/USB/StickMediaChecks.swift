import Cards
import Foundation
import Glibc
import KioskConfig

/// The checks of a stick's pictures and clips before anything is copied: `MediaFileCheck.stick`
/// (every picture decoded, every clip opened), but only for a file the import copies (one of
/// `StickListing`'s files, named exactly as on the stick). Any other path a config names is a
/// problem at its key and is never opened: a FIFO would block the import for ever, a device
/// node would be read as a picture, a symbolic link, a hidden file or a file too deep would not
/// be copied, and on FAT and exFAT (which ignore case) `Pictures/A.JPG` finds `pictures/a.jpg`
/// where the kiosk's own disk would not.
enum StickMediaChecks {
    /// `checks` for the files of `listing` (of the stick's folder `folder`) only.
    static func only(_ listing: StickListing, folder: String, checks: MediaChecks = MediaFileCheck.stick) -> MediaChecks {
        let copied = Set(listing.files.map(normalized))
        func guarded(_ check: (@Sendable (String) -> String?)?) -> (@Sendable (String) -> String?)? {
            guard let check else { return nil }
            return { path in copied.contains(normalized(path)) ? check(path) : notCopied(path, folder: folder) }
        }
        return MediaChecks(clip: guarded(checks.clip), picture: guarded(checks.picture), font: checks.font)
    }

    /// Why the file at `path`, not among the copied files, cannot be used (words that follow the
    /// key and its value).
    static func notCopied(_ path: String, folder: String) -> String {
        var st = stat()
        guard lstat(path, &st) == 0 else { return "cannot be read on the stick (\(String(cString: strerror(errno))))" }
        let kind = FileKind(mode: st.st_mode)
        guard kind.isRegularFile else { return "is \(kind), not a file: only files are copied from a stick" }
        let inside = normalized(path).dropFirst(normalized(folder).count).split(separator: "/")
        if inside.contains(where: { $0.hasPrefix(".") }) {
            return "is a hidden file (a name starting with \".\"), which is not copied from a stick"
        }
        if inside.count > StickListing.maxDepth {
            return "is more than \(StickListing.maxDepth) folders deep, which is not copied from a stick"
        }
        return "is not a file of the stick under this name (upper and lower case too: the kiosk's disk tells them apart), so it would not be copied"
    }

    /// The path with `.`, `..` and repeated `/` removed (not following links: a link's target is
    /// not what is copied).
    static func normalized(_ path: String) -> String {
        var out: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !out.isEmpty { out.removeLast() }
            default: out.append(part)
            }
        }
        return "/" + out.joined(separator: "/")
    }
}
