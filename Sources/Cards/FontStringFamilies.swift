/// The family names of a pango font string (`"DejaVu Sans Bold 12"`, `"Noto Sans, Sans Italic"`),
/// read without pango, for the config's font check before pango is open (`FontCheck`,
/// docs/start-up.md stop 56).
///
/// pango reads a font string from its end: variations (`@wght=200`), then a size (`12`,
/// `12px`), then style words (weight, style, stretch, variant, gravity: `Bold`, `Italic`,
/// `Condensed`, `Small-Caps`, `weight=600`, …); what is left is the comma-separated family list.
/// This reads it the same way but takes fewer forms as options: only the keywords listed here
/// (which `FontStringFamiliesTests` checks against the installed pango, each one: bookworm's for
/// amd64, trixie's for arm64) and only plain decimal sizes; a string with variations it does not
/// read at all. A form it does not take stays in the last family's name, which then names no
/// installed family: the check goes on to pango (`pango_font_description_from_string`), so this
/// can make the check take longer, never give another answer.
enum FontStringFamilies {
    /// The families, trimmed, empty ones left out (as `FontCatalog.missingFamilies` splits
    /// pango's); nil for a string with variations (`@wght=200`), which pango versions read
    /// differently (1.50 keeps `Sans,@wght=200` as two families, trixie's 1.56 reads the
    /// variations): pango reads those.
    static func families(in font: String) -> [String]? {
        let s = Array(font.utf8)
        guard !s.contains(UInt8(ascii: "@")) else { return nil }
        var last = s.count
        // A size.
        var word = wordBefore(last, in: s)
        if !word.isEmpty, isPlainSize(s[word]) { last = word.lowerBound }
        // Style words, from the end, while they are ones.
        word = wordBefore(last, in: s)
        while !word.isEmpty, isStyleWord(s[word]) {
            last = word.lowerBound
            word = wordBefore(last, in: s)
        }
        // The rest, less trailing space, one trailing comma and leading space, is the list.
        while last > 0, isSpace(s[last - 1]) { last -= 1 }
        if last > 0, s[last - 1] == UInt8(ascii: ",") { last -= 1 }
        while last > 0, isSpace(s[last - 1]) { last -= 1 }
        return s[0..<last].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { trimmed($0) }
            .filter { !$0.isEmpty }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The word that ends at `end` (trailing whitespace skipped): back to whitespace, a comma or
    /// the start.
    private static func wordBefore(_ end: Int, in s: [UInt8]) -> Range<Int> {
        var last = end
        while last > 0, isSpace(s[last - 1]) { last -= 1 }
        var first = last
        while first > 0, !isSpace(s[first - 1]), s[first - 1] != UInt8(ascii: ",") { first -= 1 }
        return first..<last
    }

    /// ASCII whitespace, as GLib's `g_ascii_isspace`.
    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || (0x09...0x0D).contains(c)
    }

    private static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var a = s.startIndex, b = s.endIndex
        while a < b, isSpace(s[a]) { a += 1 }
        while b > a, isSpace(s[b - 1]) { b -= 1 }
        return s[a..<b]
    }

    /// `12`, `12.5`, `.5`, `12px` (at most 1,000,000): sizes pango reads too. Signs, exponents and
    /// the like are left to pango.
    private static func isPlainSize(_ word: ArraySlice<UInt8>) -> Bool {
        var number = word
        if number.count > 2, number.suffix(2).elementsEqual("px".utf8) { number = number.dropLast(2) }
        var digits = 0, dots = 0
        for c in number {
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { digits += 1 } else if c == UInt8(ascii: ".") { dots += 1 } else { return false }
        }
        guard digits > 0, dots <= 1, let value = Double(String(decoding: number, as: UTF8.self)) else { return false }
        return value <= 1_000_000
    }

    /// The keywords pango reads as a weight, style, stretch, variant or gravity (`Normal` for any).
    static let keywords: [(field: String, words: [String])] = [
        ("weight", ["Thin", "Ultra-Light", "Extra-Light", "Light", "Semi-Light", "Demi-Light", "Book", "Regular", "Medium",
                    "Semi-Bold", "Demi-Bold", "Bold", "Ultra-Bold", "Extra-Bold", "Heavy", "Black", "Ultra-Heavy",
                    "Extra-Heavy", "Ultra-Black", "Extra-Black"]),
        ("style", ["Roman", "Oblique", "Italic"]),
        ("stretch", ["Ultra-Condensed", "Extra-Condensed", "Condensed", "Semi-Condensed", "Semi-Expanded", "Expanded",
                     "Extra-Expanded", "Ultra-Expanded"]),
        ("variant", ["Small-Caps"]),
        ("gravity", ["Not-Rotated", "South", "Upside-Down", "North", "Rotated-Left", "East", "Rotated-Right", "West"]),
    ]

    /// One style word: `Normal` or a keyword (case ignored, its hyphens optional: `semibold`).
    /// The `field=` forms (`weight=600`) are left to pango: which fields take them differs
    /// between pango versions (pango 1.50 reads `stretch=Condensed`, trixie's 1.56 does not).
    private static func isStyleWord(_ word: ArraySlice<UInt8>) -> Bool {
        matches(keyword: "Normal", word) || keywords.contains { $0.words.contains { matches(keyword: $0, word) } }
    }

    /// `word` is `keyword`, ASCII case ignored, any of the keyword's hyphens left out or not.
    private static func matches(keyword: String, _ word: ArraySlice<UInt8>) -> Bool {
        let k = Array(keyword.utf8)
        var i = 0, j = word.startIndex
        while j < word.endIndex, i < k.count {
            let a = lower(k[i]), b = lower(word[j])
            if a == b {
                i += 1
                j += 1
            } else if k[i] == UInt8(ascii: "-") {
                i += 1
            } else {
                return false
            }
        }
        return j == word.endIndex && i == k.count
    }

    private static func lower(_ c: UInt8) -> UInt8 {
        c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c
    }
}
