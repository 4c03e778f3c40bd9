import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Relative paths in the config are relative to the config file's folder.
public enum PathResolver {
    /// `path` made absolute (a relative one against `folder`, or against the working folder when
    /// `folder` is empty) and standardized (`standardized(_:)`).
    static func resolve(_ path: String, folder: String) -> String {
        if path.hasPrefix("/") { return standardized(path) }
        let base = folder.isEmpty ? FileManager.default.currentDirectoryPath : folder
        return standardized((base as NSString).appendingPathComponent(path))
    }

    /// What Foundation's `NSString.standardizingPath` gives — `.` and `..`, repeated and trailing
    /// slashes taken out, symbolic links resolved — computed here when no component of the path
    /// is a link, and asked of Foundation only when one is. Foundation looks for a link at every
    /// component with `readlink`, and for each that is not one it builds and throws away an
    /// error: in a profile under emulation, 12–25 % of the configuration's first reading at
    /// start-up (docs/start-up.md, stop 52).
    public static func standardized(_ path: String) -> String {
        plainStandardized(path) ?? (path as NSString).standardizingPath
    }

    /// `path` with `.`, `..`, repeated and trailing slashes taken out, when that is all
    /// `standardizingPath` would do: the path is absolute, no component of it is a symbolic link
    /// (`lstat`; one that does not exist is not), and the result does not begin with a prefix
    /// Foundation takes off (`/private`, `/var/automount`). Nil otherwise.
    static func plainStandardized(_ path: String) -> String? {
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        var kept: [Substring] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".":
                continue
            case "..":
                // As Foundation does: `..` takes off the last component; at the root it stays there.
                if !kept.isEmpty { kept.removeLast() }
            default:
                kept.append(component)
                if isSymbolicLink("/" + kept.joined(separator: "/")) { return nil }
            }
        }
        let plain = "/" + kept.joined(separator: "/")
        guard !plain.hasPrefix("/private"), !plain.hasPrefix("/var/automount") else { return nil }
        return plain
    }

    /// Whether `path` itself (not what it leads to) is a symbolic link; false when it cannot be
    /// examined (it does not exist, a component is not a folder, no permission), as for
    /// Foundation, whose `readlink` fails there too.
    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// `resolve`, then spelled as the file system spells it: a name that differs from the one
    /// on disk only in its Unicode normalization ("ö" as one character, or as "o" and an accent
    /// as macOS writes names) is the same name to whoever typed it, so it is that file.
    static func resolveExisting(_ path: String, folder: String) -> String {
        spelledOnDisk(resolve(path, folder: folder))
    }

    /// `path` with each component that is not on disk replaced by the entry of its folder that
    /// is canonically equivalent to it (Swift's `==`), when there is one.
    static func spelledOnDisk(_ path: String) -> String {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) || path == "/" || path.isEmpty { return path }
        let parent = spelledOnDisk((path as NSString).deletingLastPathComponent)
        let name = (path as NSString).lastPathComponent
        guard let entries = try? manager.contentsOfDirectory(atPath: parent), let match = entries.first(where: { $0 == name }) else {
            return (parent as NSString).appendingPathComponent(name)
        }
        return (parent as NSString).appendingPathComponent(match)
    }

    /// Why `path` cannot be used as a file (or folder), or nil when it can.
    static func problem(_ path: String, written: String, directory: Bool) -> String? {
        var isDir: ObjCBool = false
        let shown = written == path ? ValueFormat.quoted(path) : "\(ValueFormat.quoted(written)) (\(path))"
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return directory ? "folder \(shown) does not exist" : "file \(shown) does not exist"
        }
        if directory && !isDir.boolValue { return "\(shown) is a file, not a folder" }
        if !directory && isDir.boolValue { return "\(shown) is a folder, not a file" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "\(shown) is not readable (check its permissions)" }
        return nil
    }
}
