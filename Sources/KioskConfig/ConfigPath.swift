/// One step into a TOML document: a key of a table or an element of an array.
public enum ConfigPathComponent: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let k): return ConfigPathComponent.isBare(k) ? k : "\"\(k)\""
        case .index(let i): return "[\(i)]"
        }
    }

    /// Whether `k` can be written as a bare TOML key (`A-Za-z0-9_-`).
    static func isBare(_ k: String) -> Bool {
        !k.isEmpty && k.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
        }
    }
}

/// Where a value sits in a TOML document, e.g. `item[3].action.exec[0]`.
public typealias ConfigPath = [ConfigPathComponent]

extension Array where Element == ConfigPathComponent {
    /// The path as a person reads it: `carousel.fade_min`, `item[2].action`.
    var dotted: String {
        var out = ""
        for c in self {
            switch c {
            case .key: out += (out.isEmpty ? "" : ".") + c.description
            case .index: out += c.description
            }
        }
        return out
    }

    /// The last key of the path (the name a table or key is known by), ignoring indices.
    var lastKey: String? {
        for c in reversed() { if case .key(let k) = c { return k } }
        return nil
    }
}
