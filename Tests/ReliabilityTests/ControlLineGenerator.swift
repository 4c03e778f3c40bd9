import TestSupport
import Foundation
import Kiosk

/// Makes up control-socket lines for the soak: well-formed commands (with ordinary and absurd
/// but allowed arguments) and lines that must be refused — malformed JSON, wrong types, huge
/// numbers, unknown commands and keys, deep nesting, invalid UTF-8, unicode look-alikes. Each
/// line comes with what the parser must make of it, so the soak checks verdicts, not only that
/// nothing crashed.
struct ControlLineGenerator {
    /// What a line must give.
    enum Expectation: Equatable {
        /// Ignored without a reply (blank).
        case blank
        /// Parsed into exactly this command.
        case command(ControlCommand)
        /// Refused with an error reply.
        case refused
    }

    struct Line {
        var bytes: [UInt8]
        var expectation: Expectation
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// A well-formed line `{…fields, "cmd": NAME}` with the keys in random order and random
    /// blanks around the tokens.
    private static func object(_ fields: [(String, String)], using rng: inout SplitMix64) -> String {
        let space = { (rng: inout SplitMix64) -> String in ["", "", " ", "\t", "  "].randomElement(using: &rng)! }
        let body = fields.shuffled(using: &rng).map { "\(space(&rng))\"\($0.0)\"\(space(&rng)):\(space(&rng))\($0.1)" }
        return "{" + body.joined(separator: ",") + space(&rng) + "}"
    }

    /// A JSON number literal from `value` in one of the spellings JSON allows.
    private static func literal(_ value: Double, using rng: inout SplitMix64) -> String {
        if value == value.rounded(), abs(value) < 1e15, Bool.random(using: &rng) { return String(Int64(value)) }
        return Bool.random(using: &rng) ? "\(value)" : String(format: "%.17g", value)
    }

    /// A random line for a carousel of `count` items.
    static func make(count: Int, using rng: inout SplitMix64) -> Line {
        func valid(_ fields: [(String, String)], _ command: ControlCommand, id: String? = nil) -> Line {
            var f = fields
            if let id { f.append(("id", id)) }
            return Line(bytes: Array(object(f, using: &rng).utf8), expectation: .command(command))
        }
        func refused(_ text: String) -> Line { Line(bytes: Array(text.utf8), expectation: .refused) }
        let duration: Double? = [nil, 0, 0.25, 1, Double.random(in: 0...5, using: &rng), 3600, 1e-300].randomElement(using: &rng)!
        let durationField: [(String, String)] = duration.map { [("duration", literal($0, using: &rng))] } ?? []
        let id: String? = [nil, nil, "7", "\"a\"", "\"\u{1F3A0} карусель\"", "-1.5e3", "\"\\u00e9\\n\""].randomElement(using: &rng)!

        switch Int.random(in: 0..<24, using: &rng) {
        // Well-formed commands: ordinary and absurd arguments within the allowed ranges.
        case 0, 1:
            let index = [Int.random(in: 0...max(0, count + 2), using: &rng), 0, count, 999_999_999, 1_000_000_000].randomElement(using: &rng)!
            return valid([("cmd", "\"scroll_to\""), ("index", literal(Double(index), using: &rng))] + durationField,
                         .scrollTo(index: index, duration: duration), id: id)
        case 2, 3:
            let items = [Double.random(in: -50...50, using: &rng), 1_000_000, -1_000_000, 0, -0.0, .leastNonzeroMagnitude, 0.5].randomElement(using: &rng)!
            return valid([("cmd", "\"scroll_by\""), ("items", literal(items, using: &rng))] + durationField,
                         .scrollBy(items: items, duration: duration), id: id)
        case 4:
            if Bool.random(using: &rng) { return valid([("cmd", "\"select\"")], .select(index: nil), id: id) }
            let index = Int.random(in: 0...max(0, count + 2), using: &rng)
            return valid([("cmd", "\"select\""), ("index", literal(Double(index), using: &rng))], .select(index: index), id: id)
        case 5: return valid([("cmd", "\"state\"")], .state, id: id)
        case 6: return valid([("cmd", "\"reload\"")], .reload, id: id)
        case 7:
            let path = ["/tmp/soak.png", "/nonexistent/dir/shot.png", "/tmp/\u{1F4F8} ünïcode.png", "/" + String(repeating: "a", count: 4000)]
                .randomElement(using: &rng)!
            return valid([("cmd", "\"screenshot\""), ("path", "\"\(path)\"")], .screenshot(path: path), id: id)
        case 8: return Line(bytes: Array(" \t".utf8), expectation: .blank)

        // Wrong types and values out of range.
        case 9:
            let bad = ["\"3\"", "true", "null", "[1]", "{}", "-1", "1.5", "1e10", "-0.5", "1e999"].randomElement(using: &rng)!
            return refused(object([("cmd", "\"scroll_to\""), ("index", bad)], using: &rng))
        case 10:
            let bad = ["\"2\"", "false", "1e6001", "1000000.5", "-1e7", "[]", "null"].randomElement(using: &rng)!
            return refused(object([("cmd", "\"scroll_by\""), ("items", bad)], using: &rng))
        case 11:
            let bad = ["-1", "3600.0001", "1e308", "\"1\"", "true", "{}"].randomElement(using: &rng)!
            return refused(object([("cmd", "\"scroll_by\""), ("items", "1"), ("duration", bad)], using: &rng))
        case 12:
            let bad = ["5", "null", "true", "[\"state\"]", "{\"x\":1}", "\"\"", "\"STATE\"", "\"ѕtate\"", "\"state \"",
                       "\"\(String(repeating: "x", count: 300))\""].randomElement(using: &rng)!
            return refused(object([("cmd", bad)], using: &rng))
        case 13:
            let bad = ["7", "\"relative.png\"", "\"\"", "\"/tmp/\"", "\"/tmp/a\\u0000b.png\"", "\"/" + String(repeating: "b", count: 4100) + "\"", "null"]
                .randomElement(using: &rng)!
            return refused(object([("cmd", "\"screenshot\""), ("path", bad)], using: &rng))
        case 14:
            let bad = ["{}", "[]", "true", "null", "NaN", "\"" + String(repeating: "y", count: 300) + "\""].randomElement(using: &rng)!
            return refused(object([("cmd", "\"state\""), ("id", bad)], using: &rng))
        // Unknown commands and keys, missing parts.
        case 15:
            let extra = ["speed", "Index", "cmd2", "\u{0130}ndex", ""].randomElement(using: &rng)!
            return refused(object([("cmd", "\"scroll_to\""), ("index", "1"), (extra, "1")], using: &rng))
        case 16:
            return refused(["{}", "{\"id\":1}", "{\"index\":2}", "{\"cmd\":\"scroll_to\"}", "{\"cmd\":\"scroll_by\",\"duration\":1}",
                            "{\"cmd\":\"screenshot\"}", "{\"cmd\":\"launch\",\"argv\":[\"/bin/sh\"]}"].randomElement(using: &rng)!)
        // Not JSON objects, not JSON at all.
        case 17:
            return refused(["[]", "[{\"cmd\":\"state\"}]", "\"state\"", "42", "null", "true", "state", "cmd=state", "{cmd:\"state\"}",
                            "{'cmd':'state'}", "{\"cmd\":\"state\",}", "{\"cmd\":\"state\"} {\"cmd\":\"state\"}",
                            "{\"cmd\":\"state\"", "{\"cmd\":\"sta", "\u{FEFF}\u{FEFF}{\"cmd\":\"state\"}", "{\"cmd\":\"state\"}x",
                            "{\"cmd\":NaN}", "{\"cmd\":\"scroll_by\",\"items\":Infinity}", "{\"cmd\":\"scroll_by\",\"items\":+1}",
                            "{\"cmd\":\"scroll_by\",\"items\":01}", "{\"cmd\":\"scroll_by\",\"items\":.5}",
                            "{\"cmd\":\"state\",\"id\":\"\\ud800\"}", "{\"cmd\":\"\\x41\"}"].randomElement(using: &rng)!)
        case 18:
            // Truncated well-formed line.
            let whole = object([("cmd", "\"scroll_to\""), ("index", "2"), ("duration", "0.5")], using: &rng)
            return refused(String(whole.prefix(Int.random(in: 1..<whole.count, using: &rng))))
        case 19:
            // Nesting past the limit, and a long run of digits.
            if Bool.random(using: &rng) {
                let depth = ControlCommandParser.maxNesting + Int.random(in: 1...200, using: &rng)
                return refused("{\"cmd\":\"state\",\"id\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
            }
            return refused("{\"cmd\":\"scroll_to\",\"index\":1" + String(repeating: "0", count: Int.random(in: 10...400, using: &rng)) + "}")
        case 20:
            // Invalid UTF-8 inside an otherwise good line.
            var bytes = Array(object([("cmd", "\"state\"")], using: &rng).utf8)
            let junk: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80]]
            bytes.insert(contentsOf: junk.randomElement(using: &rng)!, at: Int.random(in: 0...bytes.count, using: &rng))
            return Line(bytes: bytes, expectation: .refused)
        case 21:
            // Control characters and NUL bytes.
            let c = [0x00, 0x01, 0x07, 0x1B, 0x0B, 0x0C].randomElement(using: &rng)!
            return refused("{\"cmd\":\"st\(Character(UnicodeScalar(UInt8(c))))ate\"}")
        case 22:
            // Random printable noise.
            let n = Int.random(in: 1...80, using: &rng)
            var s = ""
            for _ in 0..<n { s.append(Character(UnicodeScalar(UInt8.random(in: 0x21...0x7E, using: &rng)))) }
            return refused("#" + s)
        default:
            // Duplicate keys, keys differing in unicode normalisation, a huge id string.
            return refused(["{\"cmd\":\"state\",\"cmd\":\"reload\"}", "{\"cmd\":\"st\\u0061te\",\"\\u0063md\":\"select\"}",
                            "{\"cmd\":\"select\",\"index\":1,\"index\":2}"].randomElement(using: &rng)!)
        }
    }
}
