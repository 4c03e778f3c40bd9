import CarouselCore
import Foundation

/// A problem in an input script, with the line it is on (and the column, where the JSON
/// reader found the problem at a place in the line).
public struct InputScriptError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    /// 1-based, in characters; nil when the problem is the whole line's (a missing field).
    public var column: Int?
    public var message: String
    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }
    /// `FILE:LINE: message`, or `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line)\(column.map { ":\($0)" } ?? ""): \(message)" }
}

/// The JSON-lines input script format of `simulate` and `record` (docs/input-script.md):
/// one object per line, `t` in seconds of virtual time, `type`, and the type's fields.
public enum InputScript {
    /// Parses a whole script; every bad line is reported (not only the first).
    /// Events are returned sorted by time, keeping file order for equal times.
    public static func parse(_ text: String, file: String = "<script>") throws -> [TimedInputEvent] {
        var events: [TimedInputEvent] = []
        var errors: [InputScriptError] = []
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                events.append(try parseLine(line))
            } catch let message as ScriptLineError {
                // The reader's byte offset into the trimmed line, as a column of the file's line.
                let column = message.offset.map { offset in
                    let leading = rawLine.prefix { $0.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) }.count
                    return leading + String(decoding: Array(line.utf8).prefix(offset), as: UTF8.self).count + 1
                }
                errors.append(InputScriptError(file: file, line: n + 1, column: column, message: message.text))
            }
        }
        if let first = errors.first {
            throw InputScriptErrors(errors: errors, first: first)
        }
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Reads and parses a script file.
    public static func load(path: String) throws -> [TimedInputEvent] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputScriptErrors(errors: [], first: InputScriptError(file: path, line: 0, message: "cannot read the file"))
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// One event as a script line (the inverse of parsing; used by `record`).
    public static func line(for e: TimedInputEvent) -> String {
        let t = String(format: "%.4f", e.time)
        switch e.event {
        case .touchDown(let s, let x, let y): return #"{"t":\#(t),"type":"touch_down","slot":\#(s),"x":\#(num(x)),"y":\#(num(y))}"#
        case .touchMotion(let s, let x, let y): return #"{"t":\#(t),"type":"touch_motion","slot":\#(s),"x":\#(num(x)),"y":\#(num(y))}"#
        case .touchUp(let s): return #"{"t":\#(t),"type":"touch_up","slot":\#(s)}"#
        case .touchCancel(let s): return #"{"t":\#(t),"type":"touch_cancel","slot":\#(s)}"#
        case .pointerMotion(let x, let y): return #"{"t":\#(t),"type":"pointer_motion","x":\#(num(x)),"y":\#(num(y))}"#
        case .pointerButton(let p): return #"{"t":\#(t),"type":"pointer_button","pressed":\#(p)}"#
        case .pointerAxis(let d): return #"{"t":\#(t),"type":"pointer_axis","delta":\#(num(d))}"#
        case .keyDown(let k): return #"{"t":\#(t),"type":"key_down","key":"\#(k.rawValue)"}"#
        case .keyUp(let k): return #"{"t":\#(t),"type":"key_up","key":"\#(k.rawValue)"}"#
        case .rotary(let d): return #"{"t":\#(t),"type":"rotary","delta":\#(d)}"#
        }
    }

    private static func num(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.3f", v)
    }

    struct ScriptLineError: Error {
        var text: String
        /// Where in the line (a UTF-8 byte offset) the JSON reader stopped; nil: the whole line.
        var offset: Int? = nil
    }

    static func parseLine(_ line: String) throws -> TimedInputEvent {
        let value: JSONValue
        do { value = try JSONValue.read(line) } catch {
            guard let e = error as? JSONSyntaxError else { throw ScriptLineError(text: "not JSON: \(error)") }
            throw ScriptLineError(text: "not JSON: " + e.message + (e.hint.map { " (\($0))" } ?? ""), offset: e.offset)
        }
        guard let obj = value.objectValue else { throw ScriptLineError(text: "not a JSON object (each line is one {…})") }
        func number(_ key: String) throws -> Double {
            guard let v = obj[key] else { throw ScriptLineError(text: "missing \"\(key)\"") }
            guard let n = v.numberValue, n.isFinite else {
                throw ScriptLineError(text: "\"\(key)\" must be a finite number")
            }
            return n
        }
        func integer(_ key: String, default def: Int? = nil) throws -> Int {
            if obj[key] == nil, let def { return def }
            let d = try number(key)
            guard d == d.rounded(), abs(d) < 1e9 else { throw ScriptLineError(text: "\"\(key)\" must be a whole number") }
            return Int(d)
        }
        let t = try number("t")
        guard t >= 0 else { throw ScriptLineError(text: "\"t\" must not be negative") }
        guard let type = obj["type"]?.stringValue else { throw ScriptLineError(text: "missing \"type\"") }
        let event: InputEvent
        switch type {
        case "touch_down": event = .touchDown(slot: try integer("slot", default: 0), x: try number("x"), y: try number("y"))
        case "touch_motion": event = .touchMotion(slot: try integer("slot", default: 0), x: try number("x"), y: try number("y"))
        case "touch_up": event = .touchUp(slot: try integer("slot", default: 0))
        case "touch_cancel": event = .touchCancel(slot: try integer("slot", default: 0))
        case "pointer_motion": event = .pointerMotion(x: try number("x"), y: try number("y"))
        case "pointer_button":
            guard let p = obj["pressed"]?.boolValue else { throw ScriptLineError(text: "\"pressed\" must be true or false") }
            event = .pointerButton(pressed: p)
        case "pointer_axis": event = .pointerAxis(delta: try number("delta"))
        case "key_down", "key_up":
            guard let name = obj["key"]?.stringValue, let key = KeyName(rawValue: name) else {
                let names = KeyName.allCases.map(\.rawValue).joined(separator: ", ")
                throw ScriptLineError(text: "\"key\" must be one of \(names)")
            }
            event = type == "key_down" ? .keyDown(key) : .keyUp(key)
        case "rotary": event = .rotary(delta: try integer("delta"))
        default:
            throw ScriptLineError(text: "unknown type \"\(type)\" (touch_down, touch_motion, touch_up, touch_cancel, pointer_motion, pointer_button, pointer_axis, key_down, key_up, rotary)")
        }
        return TimedInputEvent(time: t, event: event)
    }
}

/// Every bad line of a script.
public struct InputScriptErrors: Error, CustomStringConvertible {
    public var errors: [InputScriptError]
    public var first: InputScriptError
    public var description: String {
        (errors.isEmpty ? [first] : errors).map(\.description).joined(separator: "\n")
    }
}
