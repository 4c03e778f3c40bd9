import Foundation
import Glibc
import LinuxSystem

/// The folders and files of a stick's folder, parents before children, in name order: only
/// regular files and folders (links, devices, FIFOs and sockets are skipped and listed), no
/// hidden names (`.Trashes`, `._photo.jpg` and the like, which other systems leave on sticks),
/// no names that are not UTF-8 (no config can name them; skipped and listed), not the `update/`
/// folder of system update bundles (`StickBundle`), and no folder deeper than `maxDepth`.
/// What it lists is what the import copies (`ContentImporter`).
struct StickListing {
    var folders: [String] = []
    var files: [String] = []
    /// Paths left out, each with why (not a file or folder; not UTF-8: then with its bytes
    /// escaped; too deep).
    var skipped: [(path: String, why: String)] = []
    var bytes: Int64 = 0
    /// Folders below the stick's folder that are listed; a deeper one is skipped.
    static let maxDepth = 16

    init(folder: String) throws {
        try walk(folder, depth: 0)
    }

    private mutating func walk(_ dir: String, depth: Int) throws {
        guard depth < Self.maxDepth else { skipped.append((dir, "more than \(Self.maxDepth) folders deep")); return }
        let listed = try Self.names(in: dir)
        skipped += listed.notUTF8.map { ((dir as NSString).appendingPathComponent($0), "a name that is not UTF-8") }
        // The update bundles' folder is not content (`StickBundle`).
        for name in listed.names.sorted() where !name.hasPrefix(".") && !(depth == 0 && name == StickBundle.folder) {
            let path = (dir as NSString).appendingPathComponent(name)
            var st = stat()
            guard lstat(path, &st) == 0 else { throw SystemCallError(call: "lstat", subject: path) }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                files.append(path)
                bytes += Int64(st.st_size)
            case S_IFDIR:
                folders.append(path)
                try walk(path, depth: depth + 1)
            default:
                skipped.append((path, "\(FileKind(mode: st.st_mode)), not a file or folder"))
            }
        }
    }

    /// The names in `dir` as `readdir(3)` gives them: those that are UTF-8, and the others with
    /// their bytes escaped (`caf\xE9.jpg`). Foundation's listing would turn such a name into
    /// another one (U+FFFD for each bad byte) that `lstat` then does not find.
    static func names(in dir: String) throws -> (names: [String], notUTF8: [String]) {
        guard let handle = opendir(dir) else { throw SystemCallError(call: "opendir", subject: dir) }
        defer { closedir(handle) }
        var names: [String] = [], notUTF8: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 { throw SystemCallError(call: "readdir", subject: dir) }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                names.append(name)
            } else {
                notUTF8.append(escaped(bytes))
            }
        }
        return (names, notUTF8)
    }

    /// A path shown in a message or the journal: control characters (a newline, ESC) as
    /// `\u{A}`, so that a name cannot start a line of its own or colour a terminal.
    static func printable(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: isControl) else { return path }
        return path.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined()
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F...0x9F).contains(s.value) }

    /// A name's bytes as text: ASCII as it is, every other byte as `\xHH`.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }
}
