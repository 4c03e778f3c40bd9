import LinuxSystem
import Foundation

/// An allowed interval of numbers, each end open, closed or absent.
struct NumberRange: Sendable {
    var min: Double?
    var max: Double?
    var minExclusive = false
    var maxExclusive = false

    static let any = NumberRange()
    static func closed(_ lo: Double, _ hi: Double) -> NumberRange { NumberRange(min: lo, max: hi) }
    static func atLeast(_ lo: Double) -> NumberRange { NumberRange(min: lo) }
    static func above(_ lo: Double) -> NumberRange { NumberRange(min: lo, minExclusive: true) }
    /// `(lo, hi]`.
    static func aboveUpTo(_ lo: Double, _ hi: Double) -> NumberRange { NumberRange(min: lo, max: hi, minExclusive: true) }

    func contains(_ v: Double) -> Bool {
        if let lo = min, minExclusive ? v <= lo : v < lo { return false }
        if let hi = max, maxExclusive ? v >= hi : v > hi { return false }
        return true
    }

    /// "0 to 1", "≥ 0", "> 0", "any".
    var description: String {
        switch (min, max) {
        case (nil, nil): return "any"
        case (let lo?, nil): return (minExclusive ? "> " : "≥ ") + ValueFormat.number(lo)
        case (nil, let hi?): return (maxExclusive ? "< " : "≤ ") + ValueFormat.number(hi)
        case (let lo?, let hi?):
            if !minExclusive && !maxExclusive { return "\(ValueFormat.number(lo)) to \(ValueFormat.number(hi))" }
            return (minExclusive ? "> " : "≥ ") + ValueFormat.number(lo) + " and " + (maxExclusive ? "< " : "≤ ") + ValueFormat.number(hi)
        }
    }
}

/// How numbers and values are written in messages and in the reference.
enum ValueFormat {
    /// `0.4`, `120`, `-0.002`: the shortest form that reads back the same.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let plain = "\(v)"
        return plain.count <= 10 ? plain : String(format: "%.6g", v)
    }

    /// `s` as a TOML basic string, as a config file would hold it (messages and the reference
    /// show values the way they are written in the file). Not JSON (`JSON.JSONString` writes
    /// that): TOML must escape U+007F (DEL) as well as the control characters, which this writes
    /// as `\u00XX` with upper-case hex, carriage return included; tab is `\t`, newline `\n`.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let h = String(u.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    static func numbers(_ v: [Double]) -> String { "[" + v.map(number).joined(separator: ", ") + "]" }
    static func strings(_ v: [String]) -> String { "[" + v.map(quoted).joined(separator: ", ") + "]" }
}

/// A value that passed its key's type check, ready to apply to the model.
enum ConfigValue {
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case numbers([Double])
    case strings([String])
    case color(ARGBColor)
    case environment([String: String])
    /// Language code → text (`ValueType.text` written as a table).
    case texts([String: String])

    var bool: Bool { if case .bool(let b) = self { return b }; return false }
    var int: Int { if case .int(let i) = self { return i }; if case .number(let d) = self { return Int(d) }; return 0 }
    var number: Double { if case .number(let d) = self { return d }; if case .int(let i) = self { return Double(i) }; return 0 }
    var string: String { if case .string(let s) = self { return s }; return "" }
    var numbers: [Double] { if case .numbers(let n) = self { return n }; return [] }
    var strings: [String] { if case .strings(let s) = self { return s }; return [] }
    var color: ARGBColor { if case .color(let c) = self { return c }; return 0 }
    var environment: [String: String] { if case .environment(let e) = self { return e }; return [:] }
}

/// The type and allowed values of one key: checks a parsed value, and names itself in the
/// reference.
enum ValueType {
    case bool
    case integer(NumberRange)
    /// An integer or a float.
    case number(NumberRange)
    case string(allowEmpty: Bool)
    /// An item text: a string (applied as `.string`), or a table of language codes to strings,
    /// `{ en = "The Harbour", de = "Der Hafen" }` (applied as `.texts`; `LanguagesSchema`).
    case text(allowEmpty: Bool)
    /// A font string as pango reads it (`"DejaVu Sans"`, `"DejaVu Sans Bold"`, `"Brand Sans,
    /// DejaVu Sans"`): not empty; one of its families installed where the load's `MediaChecks`
    /// check fonts (`check-config`, `simulate`, `run`, `usb-import`).
    case font
    case choice([String])
    case integerChoice([Int])
    case color
    /// A picture file that must exist; relative to the config file's folder. Decoded where the
    /// load's `MediaChecks` decode pictures (`usb-import`).
    case picture
    /// A video file that must exist; relative to the config file's folder. Opened (container and
    /// codec) where the load's `MediaChecks` open clips (`check-config`, `simulate`, `run`).
    case video
    /// A folder that must exist; relative to the config file's folder.
    case directory
    /// A path that need not exist yet (a device, a file to write); relative to the config's folder.
    case path
    /// A Unix socket's path, made by the kiosk: need not exist; at most
    /// `UnixSocketAddress.maxPathBytes` once resolved (longer ones cannot be bound).
    case socketPath
    /// A program and its arguments, `["/usr/bin/prog", "arg"]`.
    case command
    /// Exactly `count` numbers in `range`.
    case numbers(count: Int, NumberRange)
    /// Exactly `count` integers in `range`.
    case integers(count: Int, NumberRange)
    /// A list of non-empty strings.
    case strings
    /// A list of paths (not checked for existence); relative to the config file's folder.
    case paths
    /// `"WIDTHxHEIGHT"` or `"WIDTHxHEIGHT@HZ"`.
    case displayMode
    /// A number in the range, or the string `"auto"` (applied as `.string("auto")`).
    case numberOrAuto(NumberRange)
    /// A Linux input key code name, `KEY_ENTER`, `BTN_LEFT`.
    case keyCode
    /// An item index (0-based) or an item id.
    case itemReference
    /// A list of day names, `["mon", "tue"]` (any case; not empty, no repeats).
    case weekdays
    /// A local time of day `"HH:MM"`, 00:00 to 23:59, or up to 24:00 when `endOfDay`.
    case timeOfDay(endOfDay: Bool)
    /// Environment variables, `{ NAME = "value" }`: names as `EnvironmentName` allows, string
    /// values (empty: the variable is removed).
    case environment
    /// An `https://` or `http://` URL with a host (`DownloadURL`).
    case url
    /// A length of time `"90s"`, `"15m"`, `"6h"`, `"1d"` (or a combination, `"1h30m"`), at least
    /// `minimum` seconds; applied as `.number(seconds)`.
    case duration(minimum: Double)
    /// Times of day `"HH:MM-HH:MM"` (local time; crossing midnight when the second is earlier);
    /// applied as `.numbers([from, to])` in minutes after midnight.
    case timeRange

    /// The type column of the reference.
    var typeName: String {
        switch self {
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .text: return "string, or table of languages"
        case .font: return "string (font)"
        case .choice: return "string (choice)"
        case .integerChoice: return "integer (choice)"
        case .color: return "colour `\"#RRGGBB\"` or `\"#AARRGGBB\"`"
        case .picture: return "file path (picture)"
        case .video: return "file path (video)"
        case .directory: return "folder path"
        case .path, .socketPath: return "path"
        case .command: return "array of strings (program and arguments)"
        case .numbers(let n, _): return "array of \(n) numbers"
        case .integers(let n, _): return "array of \(n) integers"
        case .strings: return "array of strings"
        case .paths: return "array of paths"
        case .displayMode: return "string `\"WxH\"` or `\"WxH@Hz\"`"
        case .numberOrAuto: return "number or `\"auto\"`"
        case .keyCode: return "key code (name or number)"
        case .itemReference: return "integer (item index) or string (item id)"
        case .weekdays: return "array of day names"
        case .timeOfDay: return "string `\"HH:MM\"` (local time)"
        case .environment: return "table of strings `{ NAME = \"value\" }`"
        case .url: return "string (URL)"
        case .duration: return "string (duration)"
        case .timeRange: return "string `\"HH:MM-HH:MM\"` (local time)"
        }
    }

    /// The allowed-values column of the reference.
    var allowed: String {
        switch self {
        case .bool: return "`true`, `false`"
        case .integer(let r), .number(let r): return r.description
        case .string(let allowEmpty): return allowEmpty ? "any" : "not empty"
        case .text(let allowEmpty): return (allowEmpty ? "any" : "not empty") + "; a table's keys are `[languages] available` codes"
        case .font: return "an installed family (`fc-list : family`) or a generic one (`\"sans-serif\"`, …; see Fonts above)"
        case .choice(let c): return c.map { "`\"\($0)\"`" }.joined(separator: ", ")
        case .integerChoice(let c): return c.map { "`\($0)`" }.joined(separator: ", ")
        case .color: return "any colour"
        case .picture: return "an existing picture file"
        case .video: return "an existing video file this machine decodes"
        case .directory: return "an existing folder"
        case .path: return "any path"
        case .socketPath: return "at most \(UnixSocketAddress.maxPathBytes) bytes once resolved (a Unix socket's limit)"
        case .command: return "at least the program; a program with `/` must exist and be executable"
        case .numbers(_, let r), .integers(_, let r): return "each " + r.description
        case .strings: return "non-empty strings"
        case .paths: return "any paths"
        case .displayMode: return Self.displayModeLimits
        case .numberOrAuto(let r): return r.description + ", or `\"auto\"`"
        case .keyCode: return "`KEY_…` or `BTN_…` as in `linux/input-event-codes.h`, or a code up to \(LinuxKeyCodes.maxCode) (`28` or `\"28\"`)"
        case .itemReference: return "an existing item"
        case .weekdays: return Weekday.names.map { "`\"\($0)\"`" }.joined(separator: ", ")
        case .timeOfDay(let endOfDay): return endOfDay ? "`\"00:00\"` to `\"24:00\"`" : "`\"00:00\"` to `\"23:59\"`"
        case .environment: return EnvironmentName.rule + "; any string value, `\"\"` removes the variable"
        case .url: return "`https://…` or `http://…` with a host"
        case .duration(let minimum): return "a number and a unit (`s`, `m`, `h`, `d`), e.g. `\"6h\"`; at least \(DurationText.describe(seconds: minimum))"
        case .timeRange: return "`\"00:00\"` to `\"24:00\"` each; the second earlier than the first crosses midnight"
        }
    }

    /// What a display mode may ask for, as the reference and the messages say it.
    static let displayModeLimits = "\(DisplayMode.sides.lowerBound) to \(DisplayMode.sides.upperBound) pixels each side, "
        + "refresh > 0 and ≤ \(ValueFormat.number(DisplayMode.maxRefresh)) Hz"

    /// Checks `node`; returns the value to apply, or the message saying what is wrong.
    func check(_ node: TOMLNode, folder: String) -> Result<ConfigValue, ValueProblem> {
        func wrongType(_ expected: String) -> Result<ConfigValue, ValueProblem> {
            .failure(ValueProblem("must be \(expected), not \(node.typeDescription)"))
        }
        switch self {
        case .bool:
            if case .bool(let b) = node { return .success(.bool(b)) }
            return wrongType("true or false")
        case .integer(let r):
            guard case .integer(let i) = node else {
                if case .float(let d) = node, d == d.rounded(), abs(d) < 1e15 {
                    return .failure(ValueProblem("must be an integer (write \(Int(d)), not \(d))"))
                }
                return wrongType("an integer")
            }
            guard r.contains(Double(i)) else { return .failure(ValueProblem("\(i) is out of range (\(r.description))")) }
            return .success(.int(i))
        case .number(let r):
            guard let d = node.number else { return wrongType("a number") }
            guard d.isFinite else { return .failure(ValueProblem("must be a finite number, not \(d)")) }
            guard r.contains(d) else { return .failure(ValueProblem("\(ValueFormat.number(d)) is out of range (\(r.description))")) }
            return .success(.number(d))
        case .string(let allowEmpty):
            guard let s = node.string else { return wrongType("a string") }
            if !allowEmpty && s.isBlank { return .failure(ValueProblem("must not be empty")) }
            return .success(.string(s))
        case .text(let allowEmpty):
            return checkText(node, allowEmpty: allowEmpty, folder: folder)
        case .font:
            return ValueType.string(allowEmpty: false).check(node, folder: folder)
        case .choice(let choices):
            guard let s = node.string else { return wrongType("a string, one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")) }
            guard choices.contains(s) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
                    + Suggestion.clause(for: s, in: choices, quote: { "\"\($0)\"" })))
            }
            return .success(.string(s))
        case .integerChoice(let choices):
            guard case .integer(let i) = node else { return wrongType("an integer, one of " + choices.map(String.init).joined(separator: ", ")) }
            guard choices.contains(i) else { return .failure(ValueProblem("\(i) is not one of " + choices.map(String.init).joined(separator: ", "))) }
            return .success(.int(i))
        case .color:
            guard let s = node.string else { return wrongType("a colour string such as \"#1E90FF\"") }
            guard let c = ColorValue.parse(s) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a colour; write \"#RRGGBB\" or \"#AARRGGBB\" in hexadecimal"))
            }
            return .success(.color(c))
        case .picture, .video, .directory:
            guard let s = node.string else { return wrongType("a string (a path)") }
            guard !s.isEmpty else { return .failure(ValueProblem("must not be empty")) }
            let resolved = PathResolver.resolveExisting(s, folder: folder)
            let wantDirectory: Bool = { if case .directory = self { return true }; return false }()
            if let problem = PathResolver.problem(resolved, written: s, directory: wantDirectory) { return .failure(ValueProblem(problem)) }
            return .success(.string(resolved))
        case .path:
            guard let s = node.string else { return wrongType("a string (a path)") }
            guard !s.isEmpty else { return .failure(ValueProblem("must not be empty")) }
            return .success(.string(PathResolver.resolve(s, folder: folder)))
        case .socketPath:
            guard let s = node.string else { return wrongType("a string (a path)") }
            guard !s.isEmpty else { return .failure(ValueProblem("must not be empty")) }
            let resolved = PathResolver.resolve(s, folder: folder)
            let length = resolved.utf8.count
            guard length <= UnixSocketAddress.maxPathBytes else {
                let shown = s == resolved ? ValueFormat.quoted(s) : "\(ValueFormat.quoted(s)) (\(resolved))"
                return .failure(ValueProblem("\(shown) is \(length) bytes long; a Unix socket's path holds at most "
                                             + "\(UnixSocketAddress.maxPathBytes): choose a shorter one, e.g. \"/run/kiosk-carousel/control.sock\""))
            }
            return .success(.string(resolved))
        case .command:
            return checkCommand(node, folder: folder)
        case .environment:
            guard let entries = node.tableEntries else { return wrongType("a table such as { LANG = \"en_GB.UTF-8\" }") }
            var env: [String: String] = [:]
            for (name, value) in entries {
                if let problem = EnvironmentName.problem(name) { return .failure(ValueProblem(problem, entry: name, atKey: true)) }
                guard let s = value.string else {
                    return .failure(ValueProblem("\(name) must be a string, not \(value.typeDescription)", entry: name))
                }
                env[name] = s
            }
            return .success(.environment(env))
        case .numbers(let count, let r), .integers(let count, let r):
            let integral: Bool = { if case .integers = self { return true }; return false }()
            let what = integral ? "integers" : "numbers"
            guard let a = node.arrayElements else { return wrongType("an array of \(count) \(what)") }
            guard a.count == count else { return .failure(ValueProblem("must hold exactly \(count) \(what), not \(a.count)")) }
            var out: [Double] = []
            for (n, e) in a.enumerated() {
                if integral, case .integer = e {} else if integral {
                    return .failure(ValueProblem("element \(n + 1) must be an integer, not \(e.typeDescription)", element: n))
                }
                guard let d = e.number else { return .failure(ValueProblem("element \(n + 1) must be a number, not \(e.typeDescription)", element: n)) }
                guard d.isFinite else { return .failure(ValueProblem("element \(n + 1) must be a finite number", element: n)) }
                guard r.contains(d) else {
                    return .failure(ValueProblem("element \(n + 1) (\(ValueFormat.number(d))) is out of range (\(r.description))", element: n))
                }
                out.append(d)
            }
            return .success(.numbers(out))
        case .strings, .paths:
            guard let a = node.arrayElements else { return wrongType("an array of strings") }
            var out: [String] = []
            for (n, e) in a.enumerated() {
                guard let s = e.string else { return .failure(ValueProblem("element \(n + 1) must be a string, not \(e.typeDescription)", element: n)) }
                guard !s.isEmpty else { return .failure(ValueProblem("element \(n + 1) must not be empty", element: n)) }
                if case .paths = self { out.append(PathResolver.resolve(s, folder: folder)) } else { out.append(s) }
            }
            return .success(.strings(out))
        case .displayMode:
            guard let s = node.string else { return wrongType("a string such as \"1920x1080@60\"") }
            guard DisplayMode(parsing: s) != nil else {
                if DisplayMode.isWrittenAsMode(s) { return .failure(ValueProblem("\(ValueFormat.quoted(s)) is out of range (\(Self.displayModeLimits))")) }
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a mode; write \"WIDTHxHEIGHT\" or \"WIDTHxHEIGHT@HZ\", e.g. \"1920x1080@60\""))
            }
            return .success(.string(s))
        case .numberOrAuto(let r):
            if let s = node.string {
                guard s == "auto" else {
                    return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a number or \"auto\"; write a number \(r.description) or \"auto\""))
                }
                return .success(.string(s))
            }
            guard let d = node.number else { return wrongType("a number (\(r.description)) or \"auto\"") }
            guard d.isFinite, r.contains(d) else { return .failure(ValueProblem("\(ValueFormat.number(d)) is out of range (\(r.description), or \"auto\")")) }
            return .success(.number(d))
        case .keyCode:
            // "a code up to 767" written as a number, as the reference allows, is that code.
            if case .integer(let code) = node {
                guard code >= 0, code <= Int(LinuxKeyCodes.maxCode) else {
                    return .failure(ValueProblem("\(code) is out of range (key codes are 0 to \(LinuxKeyCodes.maxCode))"))
                }
                return .success(.string(String(code)))
            }
            guard let s = node.string else { return wrongType("a key code name such as \"KEY_ENTER\" or a number up to \(LinuxKeyCodes.maxCode)") }
            guard KeyCodeName.isValid(s) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a key code the kernel knows; write KEY_… or BTN_… as in linux/input-event-codes.h (e.g. \"KEY_ENTER\") or a number up to 767"
                                             + KeyCodeName.suggestion(for: s, quote: { "\"\($0)\"" })))
            }
            return .success(.string(s))
        case .itemReference:
            switch node {
            case .integer(let i):
                guard i >= 0 else { return .failure(ValueProblem("\(i) is out of range (item indices start at 0)")) }
                return .success(.int(i))
            case .string(let s) where !s.isEmpty: return .success(.string(s))
            default: return wrongType("an item index (0, 1, …) or an item id string")
            }
        case .weekdays:
            return checkWeekdays(node)
        case .timeOfDay(let endOfDay):
            return checkTime(node, endOfDay: endOfDay)
        case .url:
            guard let s = node.string else { return wrongType("a string such as \"https://updates.example.com/kiosk.raucb\"") }
            if let problem = DownloadURL.problem(s) { return .failure(ValueProblem(problem)) }
            return .success(.string(s))
        case .duration(let minimum):
            guard let s = node.string else { return wrongType("a duration string such as \"6h\" or \"30m\"") }
            guard let seconds = DurationText.seconds(s) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a duration; write a number and a unit: \"90s\", \"15m\", \"6h\", \"1d\" (or \"1h30m\")"))
            }
            guard seconds >= minimum else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is shorter than \(DurationText.describe(seconds: minimum)), the least allowed"))
            }
            return .success(.number(seconds))
        case .timeRange:
            guard let s = node.string else { return wrongType("a string such as \"22:00-06:00\"") }
            let parts = s.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard parts.count == 2, let from = Self.minutes(ofTime: parts[0]), let to = Self.minutes(ofTime: parts[1]) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a time range; write \"HH:MM-HH:MM\" in 24-hour form, e.g. \"22:00-06:00\""))
            }
            if from == 1440 { return .failure(ValueProblem("\"24:00\" is the end of a day; a range starts at \"00:00\"")) }
            guard from != to else { return .failure(ValueProblem("\(ValueFormat.quoted(s)) is empty: it starts and ends at the same time (a whole day is \"00:00-24:00\")")) }
            return .success(.numbers([Double(from), Double(to)]))
        }
    }

    /// A string, or a table of language codes to strings (not empty, each as the string would be).
    private func checkText(_ node: TOMLNode, allowEmpty: Bool, folder: String) -> Result<ConfigValue, ValueProblem> {
        if node.string != nil { return ValueType.string(allowEmpty: allowEmpty).check(node, folder: folder) }
        guard let entries = node.tableEntries else {
            return .failure(ValueProblem("must be a string or a table of languages such as { en = \"…\", de = \"…\" }, not \(node.typeDescription)"))
        }
        guard !entries.isEmpty else { return .failure(ValueProblem("must give a text for at least one language, such as { en = \"…\" }")) }
        var texts: [String: String] = [:]
        for (code, value) in entries {
            guard LanguageCode.isValid(code) else {
                return .failure(ValueProblem("has \(ValueFormat.quoted(code)), which is not \(LanguageCode.rule)", entry: code, atKey: true))
            }
            switch ValueType.string(allowEmpty: allowEmpty).check(value, folder: folder) {
            case .success(let v): texts[code] = v.string
            case .failure(let p): return .failure(ValueProblem("\(code) \(p.message)", entry: code))
            }
        }
        return .success(.texts(texts))
    }

    private func checkWeekdays(_ node: TOMLNode) -> Result<ConfigValue, ValueProblem> {
        guard let a = node.arrayElements else {
            return .failure(ValueProblem("must be an array of day names such as [\"mon\", \"tue\"], not \(node.typeDescription)"))
        }
        guard !a.isEmpty else { return .failure(ValueProblem("must name at least one day (\(Weekday.names.joined(separator: ", ")))")) }
        var out: [String] = []
        for (n, e) in a.enumerated() {
            guard let s = e.string else { return .failure(ValueProblem("element \(n + 1) must be a day name, not \(e.typeDescription)", element: n)) }
            guard let day = Weekday(name: s) else {
                return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a day; write one of " + Weekday.names.joined(separator: ", ")
                    + Suggestion.clause(for: s.lowercased(), in: Weekday.names + Self.longDayNames, quote: { name in
                        "\"\(Weekday.names.first { name.hasPrefix($0) } ?? name)\"" }), element: n))
            }
            guard !out.contains(day.name) else { return .failure(ValueProblem("\(ValueFormat.quoted(s)) is listed twice", element: n)) }
            out.append(day.name)
        }
        return .success(.strings(out))
    }

    /// Full names, so "tuesday" or "wensday" suggests "wed".
    static let longDayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `"HH:MM"` → minutes after midnight.
    static func minutes(ofTime s: String) -> Int? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h <= 24, m <= 59, h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }

    private func checkTime(_ node: TOMLNode, endOfDay: Bool) -> Result<ConfigValue, ValueProblem> {
        guard let s = node.string else { return .failure(ValueProblem("must be a time string such as \"09:30\", not \(node.typeDescription)")) }
        guard let m = Self.minutes(ofTime: s) else {
            return .failure(ValueProblem("\(ValueFormat.quoted(s)) is not a time of day; write \"HH:MM\" in 24-hour form, e.g. \"09:30\" or \"18:00\""))
        }
        if m == 1440 && !endOfDay { return .failure(ValueProblem("\"24:00\" is the end of a day; a window starts at \"00:00\"")) }
        return .success(.int(m))
    }

    private func checkCommand(_ node: TOMLNode, folder: String) -> Result<ConfigValue, ValueProblem> {
        guard let a = node.arrayElements else {
            return .failure(ValueProblem("must be an array such as [\"/usr/bin/program\", \"arg\"], not \(node.typeDescription)"))
        }
        guard !a.isEmpty else { return .failure(ValueProblem("must name at least the program to run")) }
        var argv: [String] = []
        for (n, e) in a.enumerated() {
            guard let s = e.string else { return .failure(ValueProblem("element \(n + 1) must be a string, not \(e.typeDescription)", element: n)) }
            argv.append(s)
        }
        guard !argv[0].isEmpty else { return .failure(ValueProblem("the program name must not be empty", element: 0)) }
        if argv[0].contains("/") {
            argv[0] = PathResolver.resolveExisting(argv[0], folder: folder)
            if let p = PathResolver.problem(argv[0], written: a[0].string ?? "", directory: false) { return .failure(ValueProblem(p, element: 0)) }
            guard FileManager.default.isExecutableFile(atPath: argv[0]) else {
                return .failure(ValueProblem("program \(ValueFormat.quoted(argv[0])) is not executable (chmod +x?)", element: 0))
            }
        }
        return .success(.strings(argv))
    }
}

/// Why a value was refused; `element` points into an array value when one element is at fault,
/// `entry` into a table value when one entry is (at its key when `atKey`: its name is wrong).
struct ValueProblem: Error {
    var message: String
    var element: Int?
    var entry: String?
    var atKey = false
    init(_ message: String, element: Int? = nil) { self.message = message; self.element = element }
    init(_ message: String, entry: String, atKey: Bool = false) { self.message = message; self.entry = entry; self.atKey = atKey }
}

/// The names an environment variable may have here (`[actions.env]`, an action's `env`):
/// letters, digits and `_`, not starting with a digit (what a shell can name too).
enum EnvironmentName {
    static let rule = "names of letters, digits and _, not starting with a digit"

    /// Why `name` cannot be a variable's name; nil when it can.
    static func problem(_ name: String) -> String? {
        let ok = !name.isEmpty && name.utf8.first.map { !($0 >= 48 && $0 <= 57) } == true && name.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95
        }
        return ok ? nil : "'\(name)' is not an environment variable name (letters, digits and _, not starting with a digit)"
    }
}

/// Linux key codes as the Input module reads them: a name from `linux/input-event-codes.h` or
/// a number up to `KEY_MAX` (767). Names come from `LinuxKeyCodes`, the table the Input module
/// binds with, so `check-config` rejects exactly what the kiosk would not bind.
enum KeyCodeName {
    /// A known `KEY_…`/`BTN_…` name (any case) or 0…767.
    static func isValid(_ text: String) -> Bool { LinuxKeyCodes.code(of: text) != nil }

    /// `"; did you mean KEY_ENTER?"` for a misspelt name (with `quote` around it), or "".
    static func suggestion(for text: String, quote: (String) -> String) -> String {
        Suggestion.clause(for: text, in: LinuxKeyCodes.allNames, quote: quote)
    }
}
