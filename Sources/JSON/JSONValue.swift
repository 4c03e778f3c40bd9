/// A parsed JSON value that keeps booleans and numbers apart (Foundation's `NSNumber` does not
/// on Linux). Used by the input-script reader and the control-socket command parser.
public enum JSONValue: Equatable, Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        self = .object(try c.decode([String: JSONValue].self))
    }

    /// Parses one JSON text; nil when it is not valid JSON (see `read` for the reason).
    public static func parse(_ text: String) -> JSONValue? {
        try? JSONReader.read(text)
    }

    /// Parses one JSON text strictly (RFC 8259; duplicate keys and out-of-range numbers are
    /// errors; `JSONReader`); throws `JSONSyntaxError` saying what is wrong and where.
    public static func read(_ text: String) throws -> JSONValue {
        try JSONReader.read(text)
    }

    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var numberValue: Double? { if case .number(let d) = self { return d }; return nil }
}
