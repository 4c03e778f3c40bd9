import Foundation
import TestSupport
import XCTest
@testable import KioskConfig

/// Garbage in never crashes: truncated, mutated and random versions of the example config
/// either load or give well-formed problems.
final class ConfigRobustnessTests: XCTestCase {
    let example = repositoryRoot + "/config/example.toml"
    /// Rounds scale with `$KIOSK_CONFIG_FUZZ_SCALE` (default 1) for longer runs by hand.
    let scale = Int(ProcessInfo.processInfo.environment["KIOSK_CONFIG_FUZZ_SCALE"] ?? "") ?? 1

    /// Parses `text` as if it were the example file (so its media resolve) and checks the outcome.
    func check(_ text: String, _ what: @autoclosure () -> String) {
        do {
            _ = try ConfigLoader.parse(text, file: example)
        } catch let e as ConfigErrors {
            XCTAssertFalse(e.diagnostics.isEmpty, what())
            for d in e.diagnostics {
                XCTAssertGreaterThanOrEqual(d.line, 1, what())
                XCTAssertGreaterThanOrEqual(d.column, 1, what())
                XCTAssertFalse(d.message.isEmpty, what())
            }
            let order = e.diagnostics.map { ($0.line, $0.column) }
            XCTAssertTrue(zip(order, order.dropFirst()).allSatisfy { $0 <= $1 }, "not in file order: " + what())
        } catch {
            XCTFail("unexpected error \(error) for " + what())
        }
    }

    func testEveryTruncationOfTheExample() throws {
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let scalars = Array(text.unicodeScalars)
        for n in stride(from: 0, through: scalars.count, by: 13) {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[0..<n])
            check(String(s), "truncated at \(n)")
        }
    }

    func testMutationsOfTheExample() throws {
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let base = Array(text.unicodeScalars)
        let alphabet = Array("[]{}=\"'#.,\n \\0123456789-+_aeinx:eé日\t".unicodeScalars)
        var rng = SplitMix64(seed: 0x5EED &+ UInt64(scale))
        for round in 0..<300 * scale {
            var s = base
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let i = Int.random(in: 0..<s.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: s[i] = alphabet.randomElement(using: &rng)!
                case 1: s.insert(alphabet.randomElement(using: &rng)!, at: i)
                case 2: s.remove(at: i)
                default:  // duplicate a slice: repeated keys, tables, items
                    let j = min(s.count, i + Int.random(in: 1...80, using: &rng))
                    s.insert(contentsOf: s[i..<j], at: j)
                }
            }
            var v = String.UnicodeScalarView()
            v.append(contentsOf: s)
            check(String(v), "mutation round \(round)")
        }
    }

    func testRandomGarbage() {
        var rng = SplitMix64(seed: 42 &+ UInt64(scale))
        let pieces = ["[", "]", "[[", "]]", "{", "}", "=", "\"", "'''", "\"\"\"", "#", "\n", ",", ".", "item", "carousel", "type",
                      "\"rotary\"", "1", "-2.5e3", "inf", "nan", "true", "1979-05-27", "07:32:00", "0x1F", "[1,2]", "{a=1}", " ", "\\u0000",
                      "display", "rotation", "action", "exec", "[\"x\"]", "idle", "home_item", "keyframes", "offset",
                      "\u{A0}", "\u{2028}", "\u{85}", "\r", "\u{FEFF}", "_", "+", "\t", "\u{1}",
                      "T", "t", ":", "Z", "-", "1979-05-27", "07:32", "e", "x", "0o", "0b", "p"]
        for round in 0..<1500 * scale {
            let n = Int.random(in: 0...40, using: &rng)
            let text = (0..<n).map { _ in pieces.randomElement(using: &rng)! }.joined()
            check(text, "garbage round \(round): \(text.debugDescription)")
        }
    }

    func testHostileShapes() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let texts = [
            "a = " + deep,
            "a = " + String(repeating: "{b = ", count: 300) + "1" + String(repeating: "}", count: 300),
            String(repeating: "[[item]]\n", count: 3000),
            "\"\\u0000\" = 1\n[\"a\\u0000b\"]\nc = 2\n",
            "[carousel]\nradius = 1e400\n",
            "[carousel]\nvisible_items = 9223372036854775807\n",
            "[idle]\nhome_item = -9223372036854775808\n",
            "\u{FEFF}[display]\nrotation = 90\n",
            "[[item]]\nid = \"\(String(repeating: "x", count: 100_000))\"\n",
            "title = \"\(String(repeating: "é", count: 10_000))\"",
        ]
        for (n, t) in texts.enumerated() { check(t, "hostile \(n)") }
    }
}
