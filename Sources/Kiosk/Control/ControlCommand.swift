import JSON

/// One command a control-socket client can send, already checked.
///
/// Wire format: one JSON object per line, `{"cmd": NAME, …arguments, "id": any?}`. Unknown
/// commands, unknown keys, wrong types and out-of-range values are errors (the line changes
/// nothing). `id`, when present, is echoed in the reply so that a client can match answers.
public enum ControlCommand: Hashable, Sendable {
    /// `{"cmd":"scroll_to","index":3,"duration":0.5}`: animate to item `index` (duration optional).
    case scrollTo(index: Int, duration: Double?)
    /// `{"cmd":"scroll_by","items":-2,"duration":0.5}`: animate by a number of items.
    case scrollBy(items: Double, duration: Double?)
    /// `{"cmd":"select"}` selects the current item, `{"cmd":"select","index":4}` item 4.
    case select(index: Int?)
    /// `{"cmd":"reload"}`: reload the config file.
    case reload
    /// `{"cmd":"state"}`: answer index, offset, item count, display size, fps.
    case state
    /// `{"cmd":"screenshot","path":"/tmp/shot.png"}`: write the current frame as PNG.
    case screenshot(path: String)

    /// The command's name on the wire.
    public var name: String {
        switch self {
        case .scrollTo: return "scroll_to"
        case .scrollBy: return "scroll_by"
        case .select: return "select"
        case .reload: return "reload"
        case .state: return "state"
        case .screenshot: return "screenshot"
        }
    }
}

/// A parsed line: the command and the client's optional `id`.
public struct ControlLine: Equatable, Sendable {
    public var command: ControlCommand
    /// The request's `id` (a string or a number), echoed in the reply.
    public var requestID: JSONValue?
    public init(command: ControlCommand, requestID: JSONValue? = nil) {
        self.command = command; self.requestID = requestID
    }
}

/// Why a line was refused; the text goes into the error reply.
public struct ControlCommandError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The command's name when it was readable (for the reply's `reply` field).
    public var command: String?
    /// The client's `id` when it was readable.
    public var requestID: JSONValue?
    public var description: String { message }
}

/// Parses control lines. Pure and total: any byte string gives a command or an error.
public enum ControlCommandParser {
    /// Deepest `[`/`{` nesting accepted (a guard against stack-hungry input).
    public static let maxNesting = 16
    /// Largest `duration` in seconds.
    public static let maxDuration = 3600.0
    /// Longest screenshot path in bytes (PATH_MAX).
    public static let maxPathBytes = 4096

    private static let allowedKeys: [String: Set<String>] = [
        "scroll_to": ["index", "duration"], "scroll_by": ["items", "duration"], "select": ["index"],
        "reload": [], "state": [], "screenshot": ["path"],
    ]

    /// Parses one line (without its newline).
    public static func parse(_ line: String) -> Result<ControlLine, ControlCommandError> {
        func fail(_ m: String, _ cmd: String? = nil, _ id: JSONValue? = nil) -> Result<ControlLine, ControlCommandError> {
            .failure(ControlCommandError(message: m, command: cmd, requestID: id))
        }
        guard nestingDepth(line) <= maxNesting else { return fail("JSON nested deeper than \(maxNesting) levels") }
        let value: JSONValue
        do { value = try JSONValue.read(line) } catch { return fail("not JSON: \(error)") }
        guard let object = value.objectValue else { return fail("expected a JSON object like {\"cmd\":\"state\"}") }
        var requestID: JSONValue?
        if let id = object["id"] {
            switch id {
            case .string(let s) where s.utf8.count <= 256: requestID = id
            case .number(let d) where d.isFinite: requestID = id
            default: return fail("\"id\" must be a string (at most 256 bytes) or a number")
            }
        }
        guard let cmdValue = object["cmd"] else { return fail("missing \"cmd\"", nil, requestID) }
        guard let cmd = cmdValue.stringValue else { return fail("\"cmd\" must be a string", nil, requestID) }
        guard let allowed = allowedKeys[cmd] else {
            let known = allowedKeys.keys.sorted().joined(separator: ", ")
            return fail("unknown command '\(cmd.prefix(64))' (known: \(known))", nil, requestID)
        }
        for key in object.keys.sorted() where key != "cmd" && key != "id" && !allowed.contains(key) {
            return fail("unknown key '\(key.prefix(64))' for \(cmd)", cmd, requestID)
        }
        do {
            let command: ControlCommand
            switch cmd {
            case "scroll_to":
                command = .scrollTo(index: try index(object["index"], required: true)!, duration: try duration(object["duration"]))
            case "scroll_by":
                guard let v = object["items"] else { throw ControlCommandError(message: "scroll_by needs \"items\"") }
                guard let items = v.numberValue, items.isFinite, abs(items) <= 1_000_000 else {
                    throw ControlCommandError(message: "\"items\" must be a number from -1000000 to 1000000")
                }
                command = .scrollBy(items: items, duration: try duration(object["duration"]))
            case "select": command = .select(index: try index(object["index"], required: false))
            case "reload": command = .reload
            case "state": command = .state
            default:
                guard let p = object["path"]?.stringValue else {
                    throw ControlCommandError(message: "screenshot needs \"path\" (a string)")
                }
                guard p.hasPrefix("/"), p.utf8.count <= maxPathBytes, !p.contains("\0"), !p.hasSuffix("/") else {
                    throw ControlCommandError(message: "\"path\" must be an absolute file path without NUL bytes")
                }
                command = .screenshot(path: p)
            }
            return .success(ControlLine(command: command, requestID: requestID))
        } catch let e as ControlCommandError {
            return fail(e.message, cmd, requestID)
        } catch {
            return fail("\(error)", cmd, requestID)
        }
    }

    private static func index(_ v: JSONValue?, required: Bool) throws -> Int? {
        guard let v else {
            if required { throw ControlCommandError(message: "\"index\" is required") }
            return nil
        }
        guard let d = v.numberValue, d.isFinite, d == d.rounded(), d >= 0, d <= 1_000_000_000 else {
            throw ControlCommandError(message: "\"index\" must be a whole number ≥ 0")
        }
        return Int(d)
    }

    private static func duration(_ v: JSONValue?) throws -> Double? {
        guard let v else { return nil }
        guard let d = v.numberValue, d.isFinite, d >= 0, d <= maxDuration else {
            throw ControlCommandError(message: "\"duration\" must be a number of seconds from 0 to \(Int(maxDuration))")
        }
        return d
    }

    /// The deepest nesting of `[` and `{` outside strings.
    static func nestingDepth(_ text: String) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for b in text.utf8 {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
