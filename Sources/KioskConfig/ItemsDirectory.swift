import Foundation

/// `[items] directory`: the images of a folder as items.
public enum ItemsDirectory {
    /// The folder's images (by extension, hidden files skipped) as items, sorted by file name
    /// with numbers compared as numbers; or why the folder cannot be listed.
    static func items(in folder: String, extensions: [String], style: CardStyle) -> Result<[ItemConfig], ValueProblem> {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            return .failure(ValueProblem("cannot list folder \(ValueFormat.quoted(folder)) (\(error.localizedDescription))"))
        }
        let wanted = Set(extensions.map { $0.lowercased() })
        let images = names.filter { name in
            guard !name.hasPrefix(".") else { return false }
            var isDir: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { return false }
            return wanted.contains((name as NSString).pathExtension.lowercased())
        }.sorted(by: nameOrder)
        return .success(images.map { name in
            var item = ItemConfig(id: name, title: title(fromFileName: name), image: (folder as NSString).appendingPathComponent(name), style: style)
            item.fromDirectory = true
            return item
        })
    }

    /// `03-harbour_at_dusk.jpg` → `harbour at dusk`: no extension, no leading number with its
    /// separator, `_` and `-` as spaces. A name that is only a number keeps it.
    public static func title(fromFileName name: String) -> String {
        let base = (name as NSString).deletingPathExtension
        var rest = Substring(base)
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        if !digits.isEmpty, let sep = rest.dropFirst(digits.count).first, sep == "-" || sep == "_" || sep == " " || sep == "." {
            let after = rest.dropFirst(digits.count + 1)
            if !after.isEmpty { rest = after }
        }
        let spaced = rest.map { $0 == "_" || $0 == "-" ? " " : $0 }
        let title = String(spaced).split(separator: " ").joined(separator: " ")
        return title.isEmpty ? base : title
    }

    /// Name order with runs of digits compared by value (`item2` before `item10`); ties by bytes,
    /// so the order never depends on the locale.
    static func nameOrder(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let cx = x, let cy = y {
            if cx.properties.numericType == .decimal && cx.isASCII, cy.properties.numericType == .decimal && cy.isASCII {
                var nx = "", ny = ""
                while let c = x, c.isASCII, c.properties.numericType == .decimal { nx.unicodeScalars.append(c); x = i.next() }
                while let c = y, c.isASCII, c.properties.numericType == .decimal { ny.unicodeScalars.append(c); y = j.next() }
                let tx = nx.drop(while: { $0 == "0" }), ty = ny.drop(while: { $0 == "0" })
                if tx.count != ty.count { return tx.count < ty.count }
                if tx != ty { return tx < ty }
                continue
            }
            if cx != cy { return cx.value < cy.value }
            x = i.next(); y = j.next()
        }
        if x == nil && y != nil { return true }
        if x != nil && y == nil { return false }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
