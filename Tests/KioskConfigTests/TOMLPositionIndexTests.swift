import XCTest
@testable import KioskConfig
import TestSupport

final class TOMLPositionIndexTests: XCTestCase {
    func at(_ index: TOMLPositionIndex, key path: ConfigPath) -> String {
        let p = index.keyPosition(path)
        return "\(p.line):\(p.column)"
    }

    func at(_ index: TOMLPositionIndex, value path: ConfigPath) -> String {
        let p = index.valuePosition(path)
        return "\(p.line):\(p.column)"
    }

    func testTablesKeysAndValues() {
        let index = TOMLPositionIndex(text: """
            # comment
            top = 1
            [carousel]
              type   = "rotary"  # trailing
            fade_min=-2
            """)
        XCTAssertEqual(at(index, key: [.key("top")]), "2:1")
        XCTAssertEqual(at(index, value: [.key("top")]), "2:7")
        XCTAssertEqual(at(index, key: [.key("carousel")]), "3:2")
        XCTAssertEqual(at(index, key: [.key("carousel"), .key("type")]), "4:3")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("type")]), "4:12")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("fade_min")]), "5:10")
    }

    func testArraysOfTablesAreNumbered() {
        let index = TOMLPositionIndex(text: """
            [[item]]
            id = "a"
            [[item]]
            id = "b"
            [item.action]
            emit = "x"
            [[item]]
            [[carousel.keyframes]]
            offset = 1
            """)
        XCTAssertEqual(at(index, key: [.key("item"), .index(0)]), "1:3")
        XCTAssertEqual(at(index, value: [.key("item"), .index(1), .key("id")]), "4:6")
        XCTAssertEqual(at(index, key: [.key("item"), .index(1), .key("action")]), "5:7")
        XCTAssertEqual(at(index, value: [.key("item"), .index(1), .key("action"), .key("emit")]), "6:8")
        XCTAssertEqual(at(index, key: [.key("item"), .index(2)]), "7:3")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("keyframes"), .index(0), .key("offset")]), "9:10")
    }

    func testDottedQuotedAndInlineKeys() {
        let index = TOMLPositionIndex(text: """
            input.rotary.axis = "REL_X"
            "quoted key" = 1
            'lit' = 2
            [[item]]
            action = { exec = ["/bin/true", "a"], mode = "background" }
            """)
        XCTAssertEqual(at(index, key: [.key("input")]), "1:1")
        XCTAssertEqual(at(index, key: [.key("input"), .key("rotary")]), "1:7")
        XCTAssertEqual(at(index, key: [.key("input"), .key("rotary"), .key("axis")]), "1:14")
        XCTAssertEqual(at(index, key: [.key("quoted key")]), "2:1")
        XCTAssertEqual(at(index, key: [.key("lit")]), "3:1")
        let action: ConfigPath = [.key("item"), .index(0), .key("action")]
        XCTAssertEqual(at(index, value: action), "5:10")
        XCTAssertEqual(at(index, key: action + [.key("exec")]), "5:12")
        XCTAssertEqual(at(index, value: action + [.key("exec"), .index(1)]), "5:33")
        XCTAssertEqual(at(index, value: action + [.key("mode")]), "5:46")
    }

    func testMultilineValuesAndStringsWithBrackets() {
        let index = TOMLPositionIndex(text: """
            a = \"\"\"
            [not a table]
            x = 1
            \"\"\"
            b = [
              1,  # one
              [2, 3],
              { c = "]" },
            ]
            d = "#not a comment" # comment
            e = 'C:\\dir'
            """)
        XCTAssertFalse(index.contains([.key("not a table")]))
        XCTAssertFalse(index.contains([.key("x")]))
        XCTAssertEqual(at(index, value: [.key("b"), .index(0)]), "6:3")
        XCTAssertEqual(at(index, value: [.key("b"), .index(1), .index(1)]), "7:7")
        XCTAssertEqual(at(index, key: [.key("b"), .index(2), .key("c")]), "8:5")
        XCTAssertEqual(at(index, key: [.key("d")]), "10:1")
        XCTAssertEqual(at(index, value: [.key("e")]), "11:5")
    }

    func testColumnsCountCharactersNotBytes() {
        let index = TOMLPositionIndex(text: "t = \"日本語\"; x\nu = 1\n")
        XCTAssertEqual(at(index, key: [.key("u")]), "2:1")
        let index2 = TOMLPositionIndex(text: "title = \"Café\" \nnext = 2")
        XCTAssertEqual(at(index2, value: [.key("next")]), "2:8")
    }

    func testUnknownPathsFallBackToTheNearestKnownOne() {
        let index = TOMLPositionIndex(text: "\n[idle]\nhome_item = 3\n")
        XCTAssertEqual(at(index, key: [.key("idle"), .key("missing")]), "2:2")
        XCTAssertEqual(at(index, key: [.key("nothing")]), "1:1")
    }

    func testGarbageNeverTraps() {
        for text in ["[", "[[", "a = [", "a = {", "\"", "'''", "a = \"\\u", "[a.", "= = =", "a.b.c.", "{}", "]]]]", "a = [[[[{x = [",
                     String(repeating: "[", count: 10_000), String(repeating: "a = {b = ", count: 2_000)] {
            _ = TOMLPositionIndex(text: text)
        }
    }

    /// The hazard comes from a walk that records nothing (`init`); the positions from a second one
    /// when first asked for. Both walks must find the same hazard, at the same place, on valid
    /// files, on the fuzzer's seeds, on the hazards toml++ asserts on, and on thousands of
    /// mutations of them (seeded, so a failure repeats).
    func testTheWalkWithoutPositionsFindsTheSameHazard() throws {
        var texts = ["[!a]\n", "x = 1\n\n[[ =b]]\n", "\u{FEFF}[>sel\n", "[\u{E9}t\u{E9}]\n", "[ \n", "a = [}\n",
                     "x = [\n  1, # one\n  \u{2028}]\n", "y = [[1], [\u{85}]]\n", "x = [1979-05-?\u{FFFD} 1 p]\n",
                     "x = 1979-05-27T:00\n", "x = 1979-05-27 9\n",
                     "a = \"\\u00e9\" # \"[x\"\n[\"q\\\"\".'r']\nb = '''\n[!\n'''\nc = { d = [1, {e = 2}] }\n"]
        let corpus = repositoryRoot + "/Fuzz/corpus/FuzzConfig"
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() {
            texts.append(try String(contentsOfFile: corpus + "/" + name, encoding: .utf8))
        }
        texts.append(try String(contentsOfFile: repositoryRoot + "/config/example.toml", encoding: .utf8))
        var seen = 0, hazards = 0
        func check(_ text: String) {
            let quick = TOMLPositionIndex.hazard(of: text, recording: false)
            let full = TOMLPositionIndex.hazard(of: text, recording: true)
            XCTAssertEqual(quick, full, text.debugDescription)
            seen += 1
            if full != nil { hazards += 1 }
        }
        var random = SplitMix64(seed: 57)
        let pieces: [String] = ["[", "]", "[[", "]]", "{", "}", "\"", "'", "'''", "\"\"\"", "=", ",", ".", "#", "\n", "\\",
                                " ", "\t", "\u{2028}", "\u{85}", "\u{E9}", "1979-05-27", "T", ":", "-", "+", "a", "0", "\u{FEFF}"]
        for text in texts {
            check(text)
            let scalars = Array(text.unicodeScalars)
            for _ in 0..<400 {
                var mutated = scalars
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let at = mutated.isEmpty ? 0 : Int(random.next() % UInt64(mutated.count + 1))
                    switch random.next() % 3 {
                    case 0: mutated.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))].unicodeScalars, at: at)
                    case 1: if at < mutated.count { mutated.removeSubrange(at..<min(mutated.count, at + 1 + Int(random.next() % 8))) }
                    default: if at < mutated.count { mutated.insert(contentsOf: Array(mutated[at..<min(mutated.count, at + 12)]), at: at) }
                    }
                }
                var out = String.UnicodeScalarView()
                out.append(contentsOf: mutated)
                check(String(out))
            }
        }
        // The mutations reach the hazards (else the comparison would prove little).
        XCTAssertGreaterThan(hazards, seen / 20, "\(hazards) of \(seen) texts had a hazard")
    }

    /// An index whose text has no problem is made without its positions; they are recorded at
    /// the first question, once, and are those a recording walk finds.
    func testPositionsAreRecordedWhenFirstAskedFor() {
        let index = TOMLPositionIndex(text: "[carousel]\ntype = \"rotary\"\n[[item]]\nid = \"a\"\n")
        XCTAssertNil(index.parserHazard)
        XCTAssertFalse(index.hasRecordedPositions)
        let copy = index
        XCTAssertEqual(at(copy, value: [.key("item"), .index(0), .key("id")]), "4:6")
        XCTAssertTrue(index.hasRecordedPositions, "a copy shares the recorded positions")
        XCTAssertEqual(at(index, key: [.key("carousel"), .key("type")]), "2:1")
        XCTAssertTrue(index.contains([.key("item"), .index(0)]))
    }

    /// A config that validates without a warning never records its positions (the start-up's
    /// reading); one with a warning does, and the warning is at its key.
    func testAValidFileDoesNotRecordPositions() throws {
        let text = try String(contentsOfFile: repositoryRoot + "/config/example.toml", encoding: .utf8)
        let cache = ParsedTextCache()
        let config = try ConfigLoader.parseWithTables(text, file: repositoryRoot + "/config/example.toml", parses: cache).config
        XCTAssertTrue(config.warnings.isEmpty, "\(config.warnings)")
        XCTAssertEqual(cache.parse(of: text)?.index.hasRecordedPositions, false)
        let warned = "[carousel]\nautoscroll = 40\n"
        let c = try ConfigLoader.parseWithTables(warned, file: "w.toml", parses: cache).config
        XCTAssertEqual(c.warnings.map { "\($0.line):\($0.column)" }, ["2:1"])
        XCTAssertEqual(cache.parse(of: warned)?.index.hasRecordedPositions, true)
    }
}
