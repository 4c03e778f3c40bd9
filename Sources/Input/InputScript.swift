import CarouselCore
import Foundation
import Glibc
import JSON
import LinuxSystem

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
    /// `FILE:LINE: message`, `FILE:LINE:COLUMN: message`, or `FILE: message` for the file as a
    /// whole (line 0).
    public var description: String {
        line > 0 ? "\(file):\(line)\(column.map { ":\($0)" } ?? ""): \(message)" : "\(file): \(message)"
    }
}

/// The JSON-lines input script format of `simulate` and `record` (docs/input-script.md):
/// one object per line, `t` in seconds of virtual time, `type`, and the type's fields.
public enum InputScript {
    /// Parses a whole script; every bad line is reported (not only the first), and so is a
    /// `touch_down` that is not followed, in time order, by one `touch_up` or `touch_cancel` of
    /// its slot before that slot's next `touch_down` or the end of the script (reported at the
    /// `touch_down`'s line). A `touch_up`, `touch_cancel` or `touch_motion` with no finger down
    /// is accepted (a recording may start while a finger is on the screen).
    /// Events are returned sorted by time, keeping file order for equal times.
    public static func parse(_ text: String, file: String = "<script>") throws -> [TimedInputEvent] {
        var events: [(line: Int, event: TimedInputEvent)] = []
        var errors: [InputScriptError] = []
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                events.append((n + 1, try parseLine(line)))
            } catch let message as ScriptLineError {
                // The reader's byte offset into the trimmed line, as a column of the file's line.
                let column = message.offset.map { offset in
                    let leading = rawLine.prefix { $0.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) }.count
                    return leading + String(decoding: Array(line.utf8).prefix(offset), as: UTF8.self).count + 1
                }
                errors.append(InputScriptError(file: file, line: n + 1, column: column, message: message.text))
            }
        }
        let sorted = events.enumerated().sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }.map(\.element)
        if errors.isEmpty {
            errors = unfinishedTouches(sorted).map { InputScriptError(file: file, line: $0.line, message: $0.message) }
        }
        if let first = errors.first {
            throw InputScriptErrors(errors: errors, first: first)
        }
        return sorted.map(\.event)
    }

    /// The `touch_down`s (in time order) not followed by one `touch_up` or `touch_cancel` of
    /// their slot, with their line and what is wrong.
    static func unfinishedTouches(_ events: [(line: Int, event: TimedInputEvent)]) -> [(line: Int, message: String)] {
        var down: [Int: Int] = [:]   // slot → line of its touch_down
        var problems: [(line: Int, message: String)] = []
        for (line, timed) in events {
            switch timed.event {
            case .touchDown(let slot, _, _):
                if let open = down[slot] {
                    problems.append((open, "touch_down of slot \(slot) is followed by another touch_down of slot \(slot) (line \(line)) before its touch_up or touch_cancel"))
                }
                down[slot] = line
            case .touchUp(let slot), .touchCancel(let slot):
                down[slot] = nil
            default:
                break
            }
        }
        for (slot, line) in down {
            problems.append((line, "touch_down of slot \(slot) has no touch_up or touch_cancel after it"))
        }
        return problems.sorted { $0.line < $1.line }
    }

    /// The name standard input has in messages (`--input -`).
    public static let standardInputName = "standard input"

    /// Reads and parses a script: a file, a pipe (`<(…)`, a FIFO), or standard input for `-`.
    /// A file that cannot be read is reported as `PATH: cannot read the file (errno text)`.
    public static func load(path: String) throws -> [TimedInputEvent] {
        let name = path == "-" ? standardInputName : path
        let text: [UInt8]
        do { text = try readAll(path: path) } catch let e as SystemCallError {
            throw InputScriptErrors(errors: [], first: InputScriptError(file: name, line: 0, message: "cannot read the file (\(e.message))"))
        }
        return try parse(String(decoding: text, as: UTF8.self), file: name)
    }

    /// Every byte of `path` (`-`: standard input), read until end of file, so pipes work too.
    static func readAll(path: String) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : retryingOnEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemCallError(call: "open", subject: path) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { buf in retryingOnEINTR { read(fd, buf.baseAddress!, buf.count) } }
            guard n >= 0 else { throw SystemCallError(call: "read", subject: path) }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
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
        case .keyDown(let k): return #"{"t":\#(t),"type":"key_down","key":\#(JSONString.quoted(k.rawValue))}"#
        case .keyUp(let k): return #"{"t":\#(t),"type":"key_up","key":\#(JSONString.quoted(k.rawValue))}"#
        case .rotary(let d): return #"{"t":\#(t),"type":"rotary","delta":\#(d)}"#
        case .headphones(let p): return #"{"t":\#(t),"type":"headphones","plugged":\#(p)}"#
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
        case "headphones":
            guard let p = obj["plugged"]?.boolValue else { throw ScriptLineError(text: "\"plugged\" must be true or false") }
            event = .headphones(plugged: p)
        default:
            throw ScriptLineError(text: "unknown type \"\(type)\" (touch_down, touch_motion, touch_up, touch_cancel, pointer_motion, pointer_button, pointer_axis, key_down, key_up, rotary, headphones)")
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
