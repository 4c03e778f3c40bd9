import Foundation

/// `[items] directory`: the images (and, when listed in `extensions`, the clips) of a folder as items. The loader calls it; the kiosk may call
/// it again when the folder changes (the rules match `Cards.FolderItems`).
public enum ItemsDirectory {
    /// Why a folder could not be listed.
    public struct ListingError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The folder's images (files whose extension is in `extensions`, any case; hidden files and
    /// subfolders skipped) as items with `style`, sorted by `nameOrder`. Ids are `file:NAME`, titles
    /// come from `title(fromFileName:)`, and `fromDirectory` is set.
    public static func items(in folder: String, extensions: [String], style: CardStyle) throws -> [ItemConfig] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ListingError(description: "cannot list folder \(ValueFormat.quoted(folder)) (permission denied?)")
        }
        let wanted = Set(extensions.map { $0.lowercased() })
        let images = names.filter { name in
            guard !name.hasPrefix("."), wanted.contains((name as NSString).pathExtension.lowercased()) else { return false }
            var isDir: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
        }.sorted(by: nameOrder)
        return images.map { name in
            let path = (folder as NSString).appendingPathComponent(name)
            var item = ItemConfig(id: "file:" + name, title: title(fromFileName: name), style: style)
            if videoExtensions.contains((name as NSString).pathExtension.lowercased()) { item.video = path } else { item.image = path }
            item.fromDirectory = true
            return item
        }
    }

    /// Extensions that make a folder's file a video item (when `extensions` takes them in):
    /// its clip plays on the card as a `video = …` item's does.
    public static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm"]

    /// `03-harbour_at-dusk.jpg` → `harbour at dusk`: no extension, `_` and `-` as spaces, and a
    /// leading number (used for ordering) dropped when words follow it; `2024.jpg` → `2024`.
    public static func title(fromFileName name: String) -> String {
        let base = (name as NSString).deletingPathExtension
        let words = String(base.map { $0 == "_" || $0 == "-" ? " " : $0 }).split(separator: " ")
        if words.count > 1, words[0].allSatisfy(\.isNumber) { return words.dropFirst().joined(separator: " ") }
        return words.joined(separator: " ")
    }

    /// Case-insensitive name order with runs of digits compared as numbers (`photo2` before
    /// `photo10`); ties broken by the exact names, so the order never depends on the locale.
    public static func nameOrder(_ a: String, _ b: String) -> Bool {
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
