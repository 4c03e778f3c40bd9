import CCardLibs
import KioskConfig

/// Whether a `font` key's value can be drawn with, decided as the card workers decide it
/// (`FontCatalog`: one of the string's families installed, or generic), with what to tell the
/// person who wrote it: the family fontconfig would draw instead and the installed families
/// whose names are near. `MediaFileCheck` passes it to the loader as `MediaChecks.font`.
public enum FontCheck {
    /// Why `font` cannot be drawn with, as words that follow the quoted value: `is not installed
    /// (fc-match would use "DejaVu Sans"); installed families near it: "Noto Sans"`; nil when it can.
    public static func problem(font: String) -> String? {
        // A reload runs this on its reading thread while card workers draw text: pango and
        // fontconfig calls go under the lock the workers take (`FontLock`), after fontconfig's
        // configuration is loaded (joining a load under way: `FontStartup.loadConfiguration()`).
        FontStartup.loadConfiguration()
        // A font whose family is in the families listed already needs neither pango's font map
        // nor fontconfig: checked without the lock, so that the start's check does not wait for
        // the fonts' thread drawing the first frame's text ahead of it (docs/start-up.md, stop 55).
        if let known = FontCatalog.listedFamilies(), FontCatalog.missingFamilies(in: font, known: known).isEmpty { return nil }
        // Before pango is open: the string read without pango, against the families fontconfig
        // lists as pango would. Only a font found so is passed here; anything else waits for
        // pango's own reading below (docs/start-up.md, stop 56).
        if let named = FontStringFamilies.families(in: font), let listed = FontCatalog.familiesByFontconfig(),
           named.isEmpty || named.contains(where: { listed.contains($0.lowercased()) }) {
            return nil
        }
        return FontLock.withLock { problemHoldingFontLock(font: font) }
    }

    private static func problemHoldingFontLock(font: String) -> String? {
        let missing = FontCatalog.missingFamilies(in: font)
        guard let first = missing.first else { return nil }
        var out = missing.count == 1 ? "is not installed" : "names no installed family"
        if let used = matchedFamily(first) { out += " (fc-match would use \(quoted(used)))" }
        let near = Suggestion.nearest(to: first, in: FontCatalog.installedNames(), count: 3)
        out += near.isEmpty ? "; fc-list : family lists the installed ones"
            : "; installed families near \(missing.count == 1 ? "it" : quoted(first)): " + near.map(quoted).joined(separator: ", ")
        return out
    }

    /// The family of the font fontconfig matches for `family` (as `fc-match FAMILY` prints it).
    static func matchedFamily(_ family: String) -> String? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        let added = family.withCString { s in
            s.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
        }
        guard added != 0 else { return nil }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FAMILY, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    private static func quoted(_ s: String) -> String { "\"\(s)\"" }
}
