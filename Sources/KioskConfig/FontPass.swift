/// What a `font` key may name.
public enum FontFamilies {
    /// The generic families a font string may name whatever is installed: fontconfig's own
    /// aliases (its `conf.d` maps each to an installed font: `45-latin.conf`, `60-generic.conf`)
    /// and pango's short forms of them (`sans`, `mono`). Any other family must be installed.
    public static let generic = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "math", "cursive", "fantasy"]
}

/// A font string a `font` key names, with the place of its value.
struct FontReference {
    /// As the file writes it (`"Brand Sans, DejaVu Sans"`).
    var font: String
    var place: ConfigPath
}

/// The font pass of a load: every `font` key's value looked up with the load's font check
/// (`MediaChecks.font`), each distinct value once; a value the check refuses is a problem at
/// that value (`'font' "Foo Sans" is not installed (…)`).
struct FontPass {
    /// nil: fonts are not looked up (`MediaChecks.none`).
    var check: (@Sendable (String) -> String?)?

    /// The problems of `references` (at their values), in their order.
    func problems(_ references: [FontReference]) -> [(place: ConfigPath, message: String)] {
        guard let check else { return [] }
        var reasons: [String: String?] = [:]
        var out: [(ConfigPath, String)] = []
        for r in references {
            if reasons[r.font] == nil { reasons[r.font] = .some(check(r.font)) }
            if let why = reasons[r.font] ?? nil {
                out.append((r.place, "'\(r.place.lastKey ?? r.place.dotted)' \(ValueFormat.quoted(r.font)) \(why)"))
            }
        }
        return out
    }
}
