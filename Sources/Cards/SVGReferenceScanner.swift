/// Finds what an SVG file points outside itself: `href`/`xlink:href` values, CSS `url(…)` and
/// `@import`, and XML entities with a `SYSTEM`/`PUBLIC` identifier. Only same-document
/// fragments (`#id`) and inline `data:` URLs stay inside. A kiosk refuses SVGs with any other
/// reference rather than following it (librsvg, loaded with no base file, would not follow it
/// either — this makes the refusal visible and logged).
enum SVGReferenceScanner {
    /// The first external reference in `text`, or nil when the document is self-contained.
    static func firstExternalReference(in text: String) -> String? {
        let lower = Array(text.lowercased().utf8)
        let bytes = Array(text.utf8)
        // href="…" and xlink:href='…'
        for start in occurrences(of: Array("href".utf8), in: lower) {
            if start > 0, isNameByte(lower[start - 1]) && lower[start - 1] != UInt8(ascii: ":") { continue }
            var i = start + 4
            skipSpace(lower, &i)
            guard i < lower.count, lower[i] == UInt8(ascii: "=") else { continue }
            i += 1
            skipSpace(lower, &i)
            guard i < lower.count, lower[i] == UInt8(ascii: "\"") || lower[i] == UInt8(ascii: "'") else { continue }
            let quote = lower[i]
            let valueStart = i + 1
            var end = valueStart
            while end < lower.count, lower[end] != quote { end += 1 }
            let value = String(decoding: bytes[valueStart..<min(end, bytes.count)], as: UTF8.self)
            if isExternal(value) { return value }
        }
        // url(…) in style attributes and <style> sheets
        for start in occurrences(of: Array("url(".utf8), in: lower) {
            var end = start + 4
            while end < lower.count, lower[end] != UInt8(ascii: ")") { end += 1 }
            var value = String(decoding: bytes[(start + 4)..<min(end, bytes.count)], as: UTF8.self)
            value = value.trimmingSpace().trimmingQuotes().trimmingSpace()
            if isExternal(value) { return value }
        }
        if let at = occurrences(of: Array("@import".utf8), in: lower).first {
            return String(decoding: bytes[at..<min(at + 60, bytes.count)], as: UTF8.self)
        }
        for start in occurrences(of: Array("<!entity".utf8), in: lower) {
            var end = start
            while end < lower.count, lower[end] != UInt8(ascii: ">") { end += 1 }
            let decl = String(decoding: lower[start..<min(end, lower.count)], as: UTF8.self)
            if decl.contains("system") || decl.contains("public") {
                return String(decoding: bytes[start..<min(end + 1, bytes.count)], as: UTF8.self)
            }
        }
        return nil
    }

    /// Anything but empty, `#fragment` and `data:` points outside the document.
    static func isExternal(_ reference: String) -> Bool {
        let r = reference.trimmingSpace().lowercased()
        return !(r.isEmpty || r.hasPrefix("#") || r.hasPrefix("data:"))
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard needle.count <= haystack.count, let first = needle.first else { return [] }
        var found: [Int] = []
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { found.append(i) }
            i += 1
        }
        return found
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
            || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
    }

    static func skipSpace(_ s: [UInt8], _ i: inout Int) {
        while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D { i += 1 }
    }
}

extension String {
    func trimmingSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let a = firstIndex(where: { !isSpace($0) }), let b = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[a...b])
    }

    func trimmingQuotes() -> String {
        var s = Substring(self)
        if let f = s.first, f == "\"" || f == "'" { s = s.dropFirst() }
        if let l = s.last, l == "\"" || l == "'" { s = s.dropLast() }
        return String(s)
    }
}
