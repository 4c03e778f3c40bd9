import Foundation

/// A place in a text file: 1-based line and column (columns count Unicode scalars).
public struct SourcePosition: Equatable, Comparable, Sendable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
    /// The start of the file, used when nothing better is known.
    public static let start = SourcePosition(line: 1, column: 1)
}

/// Where every key and value of a TOML document starts, by path.
///
/// TOMLKit gives positions only for syntax errors, so this scanner walks the source text and
/// records, for each path (`carousel.fade_min`, `item[3].action.exec[0]`), the position of its
/// key and of its value. It understands table headers `[a.b]`, arrays of tables `[[item]]`
/// (numbering their elements), dotted keys, quoted keys, inline tables and arrays, and every
/// string form. It is meant for text TOMLKit accepted, but never traps on any input: on text it
/// does not understand it skips to the next line.
///
/// `init(text:)` walks the text once for `parserHazard` only, without building a path or a key
/// name; the positions are recorded by a second walk at the first question about one. A file
/// that validates without a warning asks none (most starts of a kiosk), and the recording walk —
/// the paths hashed into two dictionaries, every key name built scalar by scalar — was a third
/// of the config's reading at start-up (docs/start-up.md, stop 57).
public struct TOMLPositionIndex: Sendable {
    private let positions: RecordedPositions
    /// The first syntax error toml++ asserts on instead of reporting (a table header whose
    /// name starts with a character no key starts with, `[+a]`; an array element that starts
    /// with `}` or a Unicode line separator), if any: the loader reports it before TOMLKit
    /// sees it, since toml++ would abort (debug) or run into undefined behaviour (release).
    public let parserHazard: ParserHazard?

    /// Text toml++ must not be given: where and what, and where its statement's line starts.
    public struct ParserHazard: Equatable, Sendable {
        public var position: SourcePosition
        public var message: String
        /// Offset in Unicode scalars of the line the header or key/value holding it starts on.
        public var statementStartOffset: Int
    }

    /// Indexes `text`: its hazard now, its positions when first asked for.
    public init(text: String) {
        parserHazard = Self.hazard(of: text, recording: false)
        positions = RecordedPositions(text: text)
    }

    /// The hazard of `text` as a walk with (`recording`) or without the positions finds it: the
    /// two walks must agree (`TOMLPositionIndexTests`).
    static func hazard(of text: String, recording: Bool) -> ParserHazard? {
        var scanner = Scanner(Array(text.unicodeScalars), recording: recording)
        scanner.scanDocument()
        return scanner.hazard
    }

    /// The position of the key (or table header) at `path`; for an array element, its value.
    /// Falls back to the nearest enclosing path that is known, then to the start of the file.
    public func keyPosition(_ path: ConfigPath) -> SourcePosition {
        let recorded = positions.recorded
        var p = path
        while true {
            if let k = recorded.keys[p] ?? recorded.values[p] { return k }
            if p.isEmpty { return .start }
            p.removeLast()
        }
    }

    /// The position of the value at `path` (after `=`), or of its key when the value has none
    /// of its own (a table made by a header). Falls back like `keyPosition`.
    public func valuePosition(_ path: ConfigPath) -> SourcePosition {
        if let v = positions.recorded.values[path] { return v }
        return keyPosition(path)
    }

    /// Whether the scanner saw this exact path.
    public func contains(_ path: ConfigPath) -> Bool {
        let recorded = positions.recorded
        return recorded.keys[path] != nil || recorded.values[path] != nil
    }

    /// Whether the positions have been recorded yet (for tests: a file without problems never
    /// records them).
    var hasRecordedPositions: Bool { positions.isRecorded }
}

/// The positions of a text's keys and values, recorded by the first caller that asks for them
/// (under a lock: an index is `Sendable`, and `ParsedTextCache` hands one to every reader of the
/// same text); the text is let go once they are.
private final class RecordedPositions: @unchecked Sendable {
    typealias Table = (keys: [ConfigPath: SourcePosition], values: [ConfigPath: SourcePosition])
    private let lock = NSLock()
    private var text: String?
    private var table: Table?

    init(text: String) { self.text = text }

    var recorded: Table {
        lock.lock()
        defer { lock.unlock() }
        if let table { return table }
        var scanner = Scanner(Array((text ?? "").unicodeScalars), recording: true)
        scanner.scanDocument()
        let made = (keys: scanner.keys, values: scanner.values)
        table = made
        text = nil
        return made
    }

    var isRecorded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return table != nil
    }
}

extension Array where Element == Unicode.Scalar {
    /// The element at `k`, or nil past the end.
    func at(_ k: Int) -> Unicode.Scalar? { k >= 0 && k < count ? self[k] : nil }
}

/// The pass behind `TOMLPositionIndex`: with `recording`, every key's and value's position by
/// path; without, only the hazard (no path, no key name built — the same walk otherwise).
private struct Scanner {
    let s: [Unicode.Scalar]
    let recording: Bool
    var i = 0
    var line = 1
    var column = 1
    var keys: [ConfigPath: SourcePosition] = [:]
    var values: [ConfigPath: SourcePosition] = [:]
    /// Elements seen so far of each array of tables, by its resolved path.
    var tableArrayCounts: [ConfigPath: Int] = [:]
    var hazard: TOMLPositionIndex.ParserHazard?
    /// Where the line of the header or top-level key/value being read starts.
    var statementStart = 0
    /// Deeper nesting than this is skipped (TOMLKit refuses far less).
    let maxDepth = 300

    init(_ s: [Unicode.Scalar], recording: Bool) {
        self.s = s
        self.recording = recording
    }

    var atEnd: Bool { i >= s.count }
    var current: Unicode.Scalar? { i < s.count ? s[i] : nil }
    func peek(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }
    var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// Notes the first place toml++ would assert on; `expected` says what should stand there.
    mutating func flagHazard(expected: String) {
        guard hazard == nil else { return }
        let saw: String
        switch current {
        case nil: saw = "the end of the file"
        case "\n", "\r": saw = "the end of the line"
        case let c?: saw = c.value < 0x20 || c.value >= 0x7F ? String(format: "U+%04X", c.value) : "'\(Character(c))'"
        }
        hazard = TOMLPositionIndex.ParserHazard(position: position, message: "expected \(expected), saw \(saw)", statementStartOffset: statementStart)
    }

    mutating func advance() {
        guard i < s.count else { return }
        if s[i] == "\n" { line += 1; column = 1 } else { column += 1 }
        i += 1
    }

    mutating func advance(_ n: Int) { for _ in 0..<n { advance() } }

    mutating func record(key path: ConfigPath, at p: SourcePosition) {
        if recording && keys[path] == nil { keys[path] = p }
    }

    mutating func record(value path: ConfigPath, at p: SourcePosition) {
        if recording && values[path] == nil { values[path] = p }
    }

    // MARK: Document structure

    mutating func scanDocument() {
        if current == "\u{FEFF}" { i += 1 }  // a byte-order mark is not a column
        var table: ConfigPath = []
        while !atEnd {
            skipSpaceAndNewlinesAndComments()
            guard let c = current else { break }
            statementStart = i - (column - 1)
            if c == "[" {
                if let t = scanHeader() { table = t }
            } else if isKeyStart(c) {
                scanKeyValue(prefix: table, depth: 0)
            }
            skipRestOfLine()
        }
    }

    /// `[a.b]` or `[[a.b]]`; returns the resolved path of the table it opens.
    mutating func scanHeader() -> ConfigPath? {
        advance()
        let hadSpace = current == " " || current == "\t"
        skipSpace()
        let isArray = current == "[" && !hadSpace
        if isArray {
            advance()
            skipSpace()
        }
        // As toml++ reads it: after the brackets and blanks comes `]` (an error it reports) or a key.
        if current != "]", current != "[" || isArray, current.map({ !isKeyStart($0) }) ?? false {
            flagHazard(expected: "a table name (a bare key or a quoted string)")
        }
        let parts = scanKeyParts()
        guard !parts.isEmpty else { return nil }
        guard recording else { return [] }
        var resolved: ConfigPath = []
        for (n, part) in parts.enumerated() {
            resolved.append(.key(part.name))
            let isLast = n == parts.count - 1
            if isLast && isArray {
                let count = (tableArrayCounts[resolved] ?? 0) + 1
                tableArrayCounts[resolved] = count
                record(key: resolved, at: part.position)
                resolved.append(.index(count - 1))
                record(key: resolved, at: part.position)
            } else {
                record(key: resolved, at: part.position)
                if let count = tableArrayCounts[resolved] {
                    resolved.append(.index(count - 1))
                }
            }
        }
        return resolved
    }

    /// `key = value`, `a.b.c = value` at `prefix`.
    mutating func scanKeyValue(prefix: ConfigPath, depth: Int) {
        let parts = scanKeyParts()
        guard !parts.isEmpty else { return }
        var path = prefix
        if recording {
            for part in parts {
                path.append(.key(part.name))
                record(key: path, at: part.position)
            }
        }
        skipSpace()
        guard current == "=" else { return }
        advance()
        skipSpace()
        scanValue(path: path, depth: depth)
    }

    // MARK: Keys

    struct KeyPart { var name: String; var position: SourcePosition }

    func isKeyStart(_ c: Unicode.Scalar) -> Bool { isBareKeyScalar(c) || c == "\"" || c == "'" }

    func isBareKeyScalar(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c == "-"
    }

    /// One or more key parts separated by dots (spaces allowed around the dots).
    mutating func scanKeyParts() -> [KeyPart] {
        var parts: [KeyPart] = []
        while let c = current {
            let p = position
            if c == "\"" {
                parts.append(KeyPart(name: scanBasicString(), position: p))
            } else if c == "'" {
                parts.append(KeyPart(name: scanLiteralString(), position: p))
            } else if isBareKeyScalar(c) {
                var name = ""
                while let b = current, isBareKeyScalar(b) {
                    if recording { name.unicodeScalars.append(b) }
                    advance()
                }
                parts.append(KeyPart(name: name, position: p))
            } else {
                break
            }
            skipSpace()
            guard current == "." else { break }
            advance()
            skipSpace()
        }
        return parts
    }

    // MARK: Values

    mutating func scanValue(path: ConfigPath, depth: Int) {
        record(value: path, at: position)
        guard let c = current, depth < maxDepth else { return }
        switch c {
        case "\"": _ = peek(1) == "\"" && peek(2) == "\"" ? scanMultilineString(quote: "\"") : scanBasicString()
        case "'": _ = peek(1) == "'" && peek(2) == "'" ? scanMultilineString(quote: "'") : scanLiteralString()
        case "[": scanArray(path: path, depth: depth + 1)
        case "{": scanInlineTable(path: path, depth: depth + 1)
        default:
            let start = i, startColumn = column
            skipScalar()
            checkBareValue(from: start, column: startColumn)
            checkDateTime(from: start, column: startColumn)  // the more precise message first
            checkDateShape(from: start, column: startColumn)
            checkInnerSpace(from: start, column: startColumn)
        }
    }

    /// In valid TOML only a date-time may hold a space (between its date and its time, checked
    /// by `checkDateShape`). toml++ looks past a space for such a time in any 10-character value
    /// with `-` at its 5th and 8th character and asserts when a lone digit follows
    /// (`x = [034"-8h-0h 9 'g`, `x = 1979-05-27 9`: `!is_value_terminator` in `parse_value()`,
    /// found by FuzzConfig), so any other bare value with a space inside is reported here.
    mutating func checkInnerSpace(from start: Int, column startColumn: Int) {
        var end = i
        while end > start, let c = s.at(end - 1), c == " " || c == "\t" { end -= 1 }
        guard let k = (start..<end).first(where: { s[$0] == " " || s[$0] == "\t" }) else { return }
        let isDate = start + 5 <= i && (start..<(start + 4)).allSatisfy { s[$0] >= "0" && s[$0] <= "9" } && s[start + 4] == "-"
        if isDate { return }  // a date-time with a space, already checked
        guard hazard == nil else { return }
        hazard = TOMLPositionIndex.ParserHazard(position: SourcePosition(line: line, column: startColumn + (k - start)),
                                                message: "unexpected space in a value (only a date and a time may be separated by one; text needs quotes)",
                                                statementStartOffset: statementStart)
    }

    /// Numbers, dates, booleans, `inf` and `nan` are printable ASCII; toml++ asserts on some
    /// other characters in them (`x = [1979-05-?\u{FFFD} 1 p]`, `x = 1979-05-\u{14}0 1 p`:
    /// `!is_value_terminator` in `parse_value()`, found by FuzzConfig). A non-ASCII or control
    /// character (tab aside) in a bare value is a syntax error in valid TOML's terms too, so it
    /// is reported here without asking toml++.
    mutating func checkBareValue(from start: Int, column startColumn: Int) {
        for k in start..<i where s[k].value >= 0x7F || (s[k].value < 0x20 && s[k] != "\t") {
            guard hazard == nil else { return }
            hazard = TOMLPositionIndex.ParserHazard(position: SourcePosition(line: line, column: startColumn + (k - start)),
                                                    message: "unexpected character \(String(format: "U+%04X", s[k].value)) in a value "
                                                        + "(numbers, dates and true/false are plain ASCII; text needs quotes)",
                                                    statementStartOffset: statementStart)
            return
        }
    }

    /// A bare value that starts like a date (`1979-`) or a time (`07:`) must be one all the way:
    /// toml++ asserts on some broken ones (`x = [1978-05-1) 5,1)]`, `x = 1979-05-\u{14}0 1 p`:
    /// `!is_value_terminator` in `parse_value()`, found by FuzzConfig). Checked here against
    /// TOML's grammar — `YYYY-MM-DD`, then optionally `T`/`t`/space and `HH:MM:SS[.frac]`, then
    /// optionally `Z` or `±HH:MM`; or a local time alone — with only spaces or tabs after it.
    mutating func checkDateShape(from start: Int, column startColumn: Int) {
        func digit(_ k: Int) -> Bool { if let c = s.at(k), c >= "0" && c <= "9" { return true }; return false }
        func digits(_ k: Int, _ n: Int) -> Bool { (k..<(k + n)).allSatisfy(digit) }
        func char(_ k: Int, _ c: Unicode.Scalar) -> Bool { k < i && s.at(k) == c }
        /// `HH:MM:SS[.frac]` at `k`: the index after it, or nil.
        func time(_ k: Int) -> Int? {
            guard k + 8 <= i, digits(k, 2), char(k + 2, ":"), digits(k + 3, 2), char(k + 5, ":"), digits(k + 6, 2) else { return nil }
            var e = k + 8
            if char(e, "."), e + 1 < i, digit(e + 1) { e += 1; while e < i && digit(e) { e += 1 } }
            return e
        }
        var e: Int
        let isDate = start + 5 <= i && digits(start, 4) && char(start + 4, "-")
        let isTime = start + 3 <= i && digits(start, 2) && char(start + 2, ":")
        if isDate {
            guard start + 10 <= i, digits(start + 5, 2), char(start + 7, "-"), digits(start + 8, 2) else {
                return flagDate(at: start, column: startColumn, from: start)
            }
            e = start + 10
            if e < i, let sep = s.at(e), sep == "T" || sep == "t" || sep == " ", let t = time(e + 1) {
                e = t
                if char(e, "Z") || char(e, "z") {
                    e += 1
                } else if char(e, "+") || char(e, "-") {
                    guard e + 6 <= i, digits(e + 1, 2), char(e + 3, ":"), digits(e + 4, 2) else {
                        return flagDate(at: e, column: startColumn, from: start)
                    }
                    e += 6
                }
            }
        } else if isTime {
            guard let t = time(start) else { return flagDate(at: start, column: startColumn, from: start) }
            e = t
        } else {
            return
        }
        while e < i, let c = s.at(e), c == " " || c == "\t" { e += 1 }
        if e < i { flagDate(at: e, column: startColumn, from: start) }
    }

    private mutating func flagDate(at k: Int, column startColumn: Int, from start: Int) {
        guard hazard == nil else { return }
        hazard = TOMLPositionIndex.ParserHazard(position: SourcePosition(line: line, column: startColumn + (k - start)),
                                                message: "expected a date (YYYY-MM-DD), a date-time (YYYY-MM-DDTHH:MM:SS) or a time (HH:MM:SS)",
                                                statementStartOffset: statementStart)
    }

    /// toml++ reads a number-like value with `T` in it as a date-time and asserts when no digit
    /// follows the `T` (`1979-05-27T:00`). Valid TOML always has one there.
    mutating func checkDateTime(from start: Int, column startColumn: Int) {
        guard start < i, let first = s.at(start), (first >= "0" && first <= "9") || first == "+" || first == "-" else { return }
        for k in start..<i where s[k] == "T" || s[k] == "t" {
            if let next = s.at(k + 1), next >= "0" && next <= "9" { continue }
            guard hazard == nil else { return }
            hazard = TOMLPositionIndex.ParserHazard(position: SourcePosition(line: line, column: startColumn + (k - start)),
                                                    message: "expected a time (HH:MM:SS) after '\(Character(s[k]))' in a date-time",
                                                    statementStartOffset: statementStart)
            return
        }
    }

    mutating func scanArray(path: ConfigPath, depth: Int) {
        advance()  // [
        var n = 0
        while !atEnd {
            skipSpaceAndNewlinesAndComments()
            guard let c = current else { return }
            if c == "]" { advance(); return }
            if c == "," { advance(); continue }
            if c == "}" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" { flagHazard(expected: "a value or ']'") }
            let before = i
            scanValue(path: recording ? path + [.index(n)] : path, depth: depth)
            n += 1
            if i == before { advance() }  // never stall on text we do not understand
        }
    }

    mutating func scanInlineTable(path: ConfigPath, depth: Int) {
        advance()  // {
        while !atEnd {
            skipSpace()
            guard let c = current, c != "\n" else { return }
            if c == "}" { advance(); return }
            if c == "," { advance(); continue }
            let before = i
            if isKeyStart(c) { scanKeyValue(prefix: path, depth: depth) }
            if i == before { advance() }
        }
    }

    /// Numbers, booleans, dates: up to the next delimiter — `,`, `]`, `}`, a comment or the end of
    /// the line (`\n`, or `\r\n` as TOML allows: a file saved on Windows).
    mutating func skipScalar() {
        while let c = current, c != ",", c != "]", c != "}", c != "\n", c != "#", !(c == "\r" && peek(1) == "\n") { advance() }
    }

    // MARK: Strings

    /// `"..."` with escapes decoded (as TOMLKit decodes them, so keys match); empty when not
    /// `recording`.
    mutating func scanBasicString() -> String {
        advance()  // "
        var out = String.UnicodeScalarView()
        while let c = current, c != "\n" {
            if c == "\"" { advance(); break }
            if c == "\\" {
                advance()
                guard let e = current else { break }
                advance()
                switch e {
                case "b": out.append("\u{08}")
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "f": out.append("\u{0C}")
                case "r": out.append("\r")
                case "e": out.append("\u{1B}")
                case "u", "U":
                    let digits = e == "u" ? 4 : 8
                    var v: UInt32 = 0
                    for _ in 0..<digits {
                        guard let h = current, let d = hexValue(h) else { break }
                        v = v &* 16 &+ d
                        advance()
                    }
                    if recording, let u = Unicode.Scalar(v) { out.append(u) }
                default: if recording { out.append(e) }
                }
                continue
            }
            if recording { out.append(c) }
            advance()
        }
        return String(out)
    }

    /// `'...'`, taken as written; empty when not `recording`.
    mutating func scanLiteralString() -> String {
        advance()  // '
        var out = String.UnicodeScalarView()
        while let c = current, c != "\n" {
            advance()
            if c == "'" { break }
            if recording { out.append(c) }
        }
        return String(out)
    }

    /// `"""..."""` or `'''...'''`; the content is not needed, only where it ends.
    mutating func scanMultilineString(quote: Unicode.Scalar) -> String {
        advance(3)
        while let c = current {
            if c == "\\" && quote == "\"" { advance(2); continue }
            if c == quote && peek(1) == quote && peek(2) == quote {
                advance(3)
                // Up to two more quotes belong to the content.
                while current == quote { advance() }
                return ""
            }
            advance()
        }
        return ""
    }

    func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f": return c.value - 87
        case "A"..."F": return c.value - 55
        default: return nil
        }
    }

    // MARK: Blanks

    mutating func skipSpace() {
        while let c = current, c == " " || c == "\t" { advance() }
    }

    mutating func skipSpaceAndNewlinesAndComments() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" { advance() } else if c == "#" { skipComment() } else { return }
        }
    }

    mutating func skipComment() {
        while let c = current, c != "\n" { advance() }
    }

    /// After a key/value or header: anything up to and including the end of the line.
    mutating func skipRestOfLine() {
        while let c = current, c != "\n" { advance() }
        advance()
    }
}
