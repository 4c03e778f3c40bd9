import TOMLKit

/// A parsed TOML value as plain Swift data, copied out of TOMLKit's tree once.
///
/// The copy avoids TOMLKit's table iterator (which force-unwraps and traps on keys holding
/// `\u0000`) and keeps the validator independent of TOMLKit's C++ objects.
indirect enum TOMLNode {
    case table([(key: String, value: TOMLNode)])
    case array([TOMLNode])
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time, kept as written by TOMLKit (no key takes one).
    case dateTime(String)

    /// Copies a TOMLKit value.
    init(_ v: TOMLValueConvertible) {
        switch v.type {
        case .table:
            guard let t = v.table else { self = .table([]); return }
            self = TOMLNode(table: t)
        case .array:
            guard let a = v.array else { self = .array([]); return }
            self = .array((0..<a.count).map { TOMLNode(a[$0]) })
        case .string: self = .string(v.string ?? "")
        case .int: self = .integer(v.int ?? 0)
        case .double: self = .float(v.double ?? 0)
        case .bool: self = .bool(v.bool ?? false)
        case .date, .time, .dateTime: self = .dateTime(v.debugDescription)
        }
    }

    /// Copies a TOMLKit table; a key TOMLKit cannot look up again is dropped.
    init(table t: TOMLTable) {
        var entries: [(key: String, value: TOMLNode)] = []
        for k in t.keys {
            if let v = t[k] { entries.append((k, TOMLNode(v))) }
        }
        self = .table(entries)
    }

    /// How the value's type is named in messages: "a string", "an integer"…
    var typeDescription: String {
        switch self {
        case .table: return "a table"
        case .array: return "an array"
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a floating-point number"
        case .bool: return "a boolean"
        case .dateTime: return "a date/time"
        }
    }

    var tableEntries: [(key: String, value: TOMLNode)]? {
        if case .table(let e) = self { return e }
        return nil
    }

    var arrayElements: [TOMLNode]? {
        if case .array(let e) = self { return e }
        return nil
    }

    /// A number, from an integer or a float.
    var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .float(let d): return d
        default: return nil
        }
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
