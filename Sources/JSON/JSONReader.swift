/// Why a text is not one JSON value, and where (a byte offset into its UTF-8).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    /// What would have been right there, for a person reading the message (nil: the message
    /// says it).
    public var hint: String?
    public init(message: String, offset: Int, hint: String? = nil) {
        self.message = message; self.offset = offset; self.hint = hint
    }
    /// `MESSAGE at byte N`, then the hint in parentheses.
    public var description: String { "\(message) at byte \(offset + 1)" + (hint.map { " (\($0))" } ?? "") }
}

/// A strict RFC 8259 reader for `JSONValue`, written for the two places that read JSON from
/// outside — control-socket lines and input-script lines — where Foundation's `JSONDecoder`
/// (through `Decodable`) was the bulk of the time and silently kept the first of two equal keys
/// (`{"cmd":"select","index":1,"index":2}` selected item 1; found by the soak's control lines).
///
/// Accepted: one value of any type (objects, arrays, strings, numbers, `true`/`false`/`null`)
/// with blanks around it, a leading byte-order mark (as `JSONDecoder` did). Refused: anything
/// after the value, duplicate keys in one object, numbers outside `Double`'s range, leading
/// zeros, `NaN`/`Infinity`, unescaped control characters in strings, unpaired surrogate
/// escapes, trailing commas, and nesting deeper than `maxDepth` (so no input can exhaust the
/// stack).
struct JSONReader {
    /// Deepest nesting of arrays and objects read.
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    /// Reads the whole of `text` as one JSON value.
    static func read(_ text: String) throws -> JSONValue {
        var reader = JSONReader(bytes: Array(text.utf8))
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        reader.skipBlanks()
        let value = try reader.value()
        reader.skipBlanks()
        guard reader.i == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: i) }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipBlanks() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func value() throws -> JSONValue {
        guard let b = peek else { throw error("expected a value, found the end") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw notAValue()
        }
    }

    /// `true`, `false` or `null` whole (`nul`, `nullx` and `not` are not values).
    private mutating func word(_ w: StaticString) throws {
        let n = w.utf8CodeUnitCount
        guard i + n <= bytes.count, (0..<n).allSatisfy({ bytes[i + $0] == w.utf8Start[$0] }),
              i + n == bytes.count || !Self.isWordByte(bytes[i + n]) else { throw notAValue() }
        i += n
    }

    /// What a value's place holds instead of a value, quoted: a whole word (`'not'`, `'nul'`)
    /// or one character (`'}'`), at most 32 bytes.
    private func notAValue() -> JSONSyntaxError {
        var end = i
        while end < bytes.count, end - i < 32, Self.isWordByte(bytes[end]) { end += 1 }
        if end == i {
            // One character, however many bytes it takes in UTF-8.
            end = i + 1
            while end < bytes.count, end - i < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        let found = String(decoding: bytes[i..<end], as: UTF8.self)
        return JSONSyntaxError(message: "'\(found)' is not a JSON value", offset: i,
                               hint: "a value is an object {…}, an array […], a \"string\", a number, true, false or null")
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw error("nested deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws -> JSONValue {
        try enter()
        i += 1
        var members: [String: JSONValue] = [:]
        skipBlanks()
        if peek == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
        while true {
            skipBlanks()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let keyStart = i
            let key = try string()
            skipBlanks()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            i += 1
            skipBlanks()
            let v = try value()
            guard members.updateValue(v, forKey: key) == nil else {
                throw JSONSyntaxError(message: "duplicate key \"\(key.prefix(64))\"", offset: keyStart)
            }
            skipBlanks()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; depth -= 1; return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws -> JSONValue {
        try enter()
        i += 1
        var elements: [JSONValue] = []
        skipBlanks()
        if peek == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(elements) }
        while true {
            skipBlanks()
            elements.append(try value())
            skipBlanks()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; depth -= 1; return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite.
    private mutating func number() throws -> Double {
        let start = i
        func digits() -> Int {
            let from = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - from
        }
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
            if let d = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) { throw error("a number must not start with 0") }
        } else if digits() == 0 {
            throw error("expected digits")
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw JSONSyntaxError(message: "number \(text.prefix(32)) is out of range", offset: start,
                                  hint: "numbers must lie within ±1.7976931348623157e308")
        }
        return d
    }

    private mutating func string() throws -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        if peek == UInt8(ascii: "\"") {
            defer { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }
        var out = Array(bytes[start..<i])
        while true {
            guard let b = peek else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                guard let e = peek else { throw error("unterminated string") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in a \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate in a \\u escape")
                    }
                    out += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    i -= 1
                    throw error("invalid escape")
                }
            case 0..<0x20:
                throw error("control character in a string (escape it)")
            default:
                out.append(b)
                i += 1
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hex digits after \\u")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}
