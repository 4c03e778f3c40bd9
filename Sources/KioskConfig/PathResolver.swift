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
    /// start-up (docs/start-up.md, stop 52). Computed here it goes by bytes, as the kernel does: a
    /// slash before a combining mark separates components (Foundation, going by characters,
    /// takes the two for one character of a name).
    public static func standardized(_ path: String) -> String {
        plainStandardized(path) ?? (path as NSString).standardizingPath
    }

    /// `path` with `.`, `..`, repeated and trailing slashes taken out, when that is all
    /// `standardizingPath` would do: the path is absolute, no component of it is a symbolic link
    /// (`lstat`; one that does not exist is not), and the result does not begin with a prefix
    /// Foundation takes off (`/private`, `/var/automount`). Nil otherwise.
    ///
    /// One walk over the path's bytes into one buffer, each prefix handed to `lstat` from it: the
    /// earlier form split the path into substrings and joined them again for every component
    /// (2.5 M of the configuration's 10.7 M instructions at start-up, callgrind, stop 57).
    static func plainStandardized(_ path: String) -> String? {
        var path = path, plain: [UInt8] = []
        guard path.withUTF8({ standardize($0, into: &plain) }) else { return nil }
        let result = plain.isEmpty ? "/" : String(decoding: plain, as: UTF8.self)
        guard !result.hasPrefix("/private"), !result.hasPrefix("/var/automount") else { return nil }
        return result
    }

    /// The walk of `plainStandardized`: `bytes` (an absolute path) into `plain` ("/a/b", empty
    /// for the root); false when it is not absolute or a component is a symbolic link.
    private static func standardize(_ bytes: UnsafeBufferPointer<UInt8>, into plain: inout [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        guard bytes.first == slash else { return false }
        plain.reserveCapacity(bytes.count + 1)
        var i = 0
        while i < bytes.count {
            while i < bytes.count && bytes[i] == slash { i += 1 }
            let start = i
            while i < bytes.count && bytes[i] != slash { i += 1 }
            switch i - start {
            case 0:
                continue
            case 1 where bytes[start] == dot:
                continue
            case 2 where bytes[start] == dot && bytes[start + 1] == dot:
                // As Foundation does: `..` takes off the last component; at the root it stays there.
                if let last = plain.lastIndex(of: slash) { plain.removeSubrange(last...) }
                continue
            default:
                plain.append(slash)
                plain.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                if isSymbolicLink(&plain) { return false }
            }
        }
        return true
    }

    /// Whether the path in `bytes` itself (not what it leads to) is a symbolic link; false when it
    /// cannot be examined (it does not exist, a component is not a folder, no permission), as for
    /// Foundation, whose `readlink` fails there too. `bytes` is given back as it came.
    private static func isSymbolicLink(_ bytes: inout [UInt8]) -> Bool {
        var info = stat()
        bytes.append(0)
        defer { bytes.removeLast() }
        let found = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
        }
        return found && (info.st_mode & S_IFMT) == S_IFLNK
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
