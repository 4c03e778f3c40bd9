/// A parsed TOML value as plain Swift data, copied out of toml++'s tree once (`TOMLNode.parse`).
///
/// The copy avoids TOMLKit's table iterator (which force-unwraps and traps on keys holding
/// `\u0000`) and its leaks, and keeps the validator independent of toml++'s C++ objects.
indirect enum TOMLNode {
    case table([(key: String, value: TOMLNode)])
    case array([TOMLNode])
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time, kept as toml++ writes it (no key takes one).
    case dateTime(String)

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
