import Foundation
import KioskConfig

/// Items from a folder (`[items] directory = "media/"`): every PNG, JPEG, WebP and SVG file in
/// it (not in subfolders, hidden files skipped), sorted by name the way people read numbers
/// (`photo2` before `photo10`), titled from the file name (`03-lake_at-dusk.jpg` → "lake at dusk":
/// `_` and `-` become spaces, a leading number used for ordering is dropped).
public enum FolderItems {
    /// File name extensions taken from the folder.
    public static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg"]

    /// The items of `directory` with `style`; ids are `file:NAME`. Throws when the folder cannot
    /// be read (missing, not a folder, no permission).
    public static func items(in directory: String, style: CardStyle = CardStyle()) throws -> [ItemConfig] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) else {
            throw CardFailure(file: directory, reason: "items folder not found")
        }
        guard isDir.boolValue else { throw CardFailure(file: directory, reason: "items folder is not a folder") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw CardFailure(file: directory, reason: "cannot list the items folder (permission denied?)")
        }
        return names
            .filter { !$0.hasPrefix(".") && extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .filter { name in
                var d: ObjCBool = false
                return FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(name), isDirectory: &d) && !d.boolValue
            }
            .sorted(by: naturalOrder)
            .map { name in
                ItemConfig(id: "file:\(name)", title: title(fromFileName: name),
                           image: (directory as NSString).appendingPathComponent(name), style: style)
            }
    }

    /// `03-lake_at-dusk.jpg` → `lake at dusk`; `2024.jpg` → `2024`.
    public static func title(fromFileName name: String) -> String {
        let base = (name as NSString).deletingPathExtension
        let words = String(base.map { $0 == "_" || $0 == "-" ? " " : $0 }).split(separator: " ")
        if words.count > 1, words[0].allSatisfy(\.isNumber) { return words.dropFirst().joined(separator: " ") }
        return words.joined(separator: " ")
    }

    /// Case-insensitive, with runs of digits compared as numbers.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if x[i].isNumber && y[j].isNumber {
                var ni = i, nj = j
                while ni < x.count && x[ni].isNumber { ni += 1 }
                while nj < y.count && y[nj].isNumber { nj += 1 }
                let da = String(x[i..<ni]).drop { $0 == "0" }, db = String(y[j..<nj]).drop { $0 == "0" }
                if da.count != db.count { return da.count < db.count }
                if da != db { return da < db }
                i = ni; j = nj
            } else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1; j += 1
            }
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        return a < b
    }
}
