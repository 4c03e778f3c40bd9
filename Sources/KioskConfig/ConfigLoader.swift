import CarouselCore
import Foundation
import TOMLKit

/// Reads `config.toml` into a validated `KioskConfiguration`, reporting every problem at once.
public enum ConfigLoader {
    /// Where the config is looked for: `--config`, then `$KIOSK_CAROUSEL_CONFIG`, then
    /// `/etc/kiosk-carousel/config.toml`.
    public static func resolvePath(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["KIOSK_CAROUSEL_CONFIG"], !env.isEmpty { return env }
        return "/etc/kiosk-carousel/config.toml"
    }

    /// Loads and validates a file. Throws `ConfigErrors` listing every problem.
    public static func load(path: String) throws -> KioskConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigErrors([ConfigDiagnostic(file: path, line: 0, column: 0, message: "cannot read the config file (missing or not readable)")])
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Parses and validates TOML text; relative paths resolve against `file`'s folder.
    public static func parse(_ text: String, file: String) throws -> KioskConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigErrors([ConfigDiagnostic(file: file, line: Int(e.source.begin.line), column: Int(e.source.begin.column), message: e.description)])
        }
        var config = KioskConfiguration()
        config.file = file
        let folder = (file as NSString).deletingLastPathComponent
        if let c = table["carousel"]?.table {
            if let t = c["type"]?.string, let type = CarouselType(rawValue: t) { config.carousel.type = type }
            if let s = c["item_size"]?.array, s.count == 2, let w = s[0].int, let h = s[1].int {
                config.carousel.itemSize = Size2(Double(w), Double(h))
            }
        }
        if let items = table["item"]?.array {
            for (i, node) in items.enumerated() {
                guard let t = node.table else { continue }
                var item = ItemConfig(id: t["id"]?.string ?? "item\(i + 1)", title: t["title"]?.string ?? "")
                item.subtitle = t["subtitle"]?.string
                if let img = t["image"]?.string {
                    item.image = img.hasPrefix("/") ? img : (folder as NSString).appendingPathComponent(img)
                }
                config.items.append(item)
            }
        }
        return config
    }
}
