import Foundation
import Input
import KioskConfig
import XCTest

/// Every input the fuzzers (scripts/fuzz.sh) ever crashed, hung or leaked on, replayed through
/// the same entry points in the normal test suite. The inputs live in `Fuzz/regressions/HARNESS/`
/// (also fed to libFuzzer as seeds); a new finding is one more file there.
final class FuzzRegressionTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func inputs(_ harness: String) throws -> [(name: String, text: String)] {
        let folder = Self.root.appendingPathComponent("Fuzz/regressions/\(harness)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { name in
            (name, String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self))
        }
    }

    func testConfigRegressionsGiveLocatedErrorsNotAborts() throws {
        let cases = try inputs("FuzzConfig")
        XCTAssertFalse(cases.isEmpty)
        for c in cases {
            do {
                _ = try ConfigLoader.parse(c.text, file: "/fuzz/\(c.name).toml")
            } catch let e as ConfigErrors {
                XCTAssertFalse(e.diagnostics.isEmpty, c.name)
                for d in e.diagnostics { XCTAssertGreaterThan(d.line, 0, "\(c.name): \(d)") }
            }
        }
    }

    func testInputScriptRegressionsParseOrReportLines() throws {
        for c in try inputs("FuzzInputScript") {
            let start = Date()
            do {
                _ = try InputScript.parse(c.text, file: c.name)
            } catch let e as InputScriptErrors {
                XCTAssertFalse(e.errors.isEmpty, c.name)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1, "\(c.name) must not hang")
        }
    }

    /// The first diagnostic of `text` is at `line`:`column` and its message starts with `prefix`.
    private func assertSyntaxError(_ text: String, line: Int, column: Int, startingWith prefix: String,
                                   file: StaticString = #filePath, at sourceLine: UInt = #line) {
        XCTAssertThrowsError(try ConfigLoader.parse(text, file: "c.toml"), text.debugDescription, file: file, line: sourceLine) { error in
            let d = (error as? ConfigErrors)?.diagnostics.first
            XCTAssertEqual(d?.line, line, text.debugDescription, file: file, line: sourceLine)
            XCTAssertEqual(d?.column, column, text.debugDescription, file: file, line: sourceLine)
            XCTAssertEqual(d?.message.hasPrefix(prefix), true, d?.message ?? "", file: file, line: sourceLine)
        }
    }

    /// `[!a]` made toml++ (inside TOMLKit) fail an assertion and abort the process: check-config,
    /// start-up and the hot reload of a running kiosk all died with SIGABRT. (Found by FuzzConfig
    /// and, independently, by the config engineer, whose `TOMLPositionIndex.parserHazard` guards it.)
    func testTableHeaderWithAnInvalidFirstCharacterIsAnError() {
        for (text, line, column) in [("[!a]\n", 1, 2), ("x = 1\n\n[[ =b]]\n", 3, 4), ("\u{FEFF}[>sel\n", 1, 2),
                                     ("[\u{E9}t\u{E9}]\n", 1, 2), ("[ \n", 1, 3)] {
            assertSyntaxError(text, line: line, column: column, startingWith: "TOML syntax error: expected a table name")
        }
    }

    /// `x = [1, }` failed toml++'s `!is_value_terminator(*cp)` assertion in `parse_value()`.
    func testArrayElementStartingWithABraceOrLineSeparatorIsAnError() {
        for (text, line, column) in [("a = [}\n", 1, 6), ("c = [1.0, 0.0, }\n", 1, 16),
                                     ("x = [\n  1, # one\n  \u{2028}]\n", 3, 3), ("y = [[1], [\u{85}]]\n", 1, 12)] {
            assertSyntaxError(text, line: line, column: column, startingWith: "TOML syntax error: expected a value or ']'")
        }
        // Inline tables inside arrays keep their own commas and braces.
        // (The keys are unknown to the schema; only syntax errors would be wrong here.)
        assertNoSyntaxError("a = [{ x = 1, y = 2 }, { x = 3 }]\nb = [\n]\n")
    }

    /// `x = [1979-05-?\u{FFFD} 1 p]` and `x = [1979-05-\u{14}0 1 p]` failed the same assertion
    /// (FuzzConfig): a non-ASCII or control character in a bare value. Quoted, it is fine.
    func testNonASCIICharacterInABareValueIsAnError() {
        for (text, line, column) in [("x = [1979-05-?\u{FFFD} 1 p]\n", 1, 15), ("x = 1979-05-?\u{E9} 1 p\n", 1, 14),
                                     ("a = 1\nb = 12\u{2003}\n", 2, 7), ("t = { n = tr\u{FC}e }\n", 1, 13),
                                     ("x = [1979-05-\u{14}0 1 p]\n", 1, 14), ("x = 1979-05-\u{14}0 1 p\n", 1, 13),
                                     ("y = 12\u{7F}\n", 1, 7)] {
            assertSyntaxError(text, line: line, column: column, startingWith: "TOML syntax error: unexpected character U+")
        }
        assertNoSyntaxError("s = \"caf\u{E9} 1979-05-?\u{FFFD}\" # \u{E9}t\u{E9}\nt = ['\u{FFFD}']\n")
    }

    /// `x = [1978-05-1) 5,1)]` and `ypx = [034"-8h-0h 9 'g` failed it too (FuzzConfig): a broken
    /// date, and a space toml++ looked past for a time. Values that start like a date or a time
    /// are checked against TOML's grammar first, a space in any other bare value is an error,
    /// and every valid date, date-time and time form still parses.
    func testBrokenDatesAreErrorsAndValidDatesParse() {
        for (text, line, column) in [("x = [1978-05-1) 5,1)xyi]\n", 1, 6), ("x = 1979-05-27 p\n", 1, 16),
                                     ("x = 1979-05-27T07:32:00+07\n", 1, 24), ("x = 07:32:0\n", 1, 5),
                                     ("x = 1979-5-27\n", 1, 5)] {
            assertSyntaxError(text, line: line, column: column, startingWith: "TOML syntax error: expected a date (YYYY-MM-DD)")
        }
        for (text, line, column) in [("ypx = [034\"-8h-0h 9 'g\n", 1, 18), ("x = 12 34\n", 1, 7), ("x = { y = tr ue }\n", 1, 13)] {
            assertSyntaxError(text, line: line, column: column, startingWith: "TOML syntax error: unexpected space in a value")
        }
        assertSyntaxError("x = 1979-05-27 9\n", line: 1, column: 16, startingWith: "TOML syntax error: expected a date (YYYY-MM-DD)")
        let valid = """
            a = 1979-05-27
            b = 1979-05-27T07:32:00Z
            c = 1979-05-27 07:32:00.999-07:00
            d = 1979-05-27t00:32:00.999999
            e = 07:32:00
            f = [1979-05-27, 1980-01-01T00:00:00z ]  # comment
            g = { h = 00:00:01.5 }
            i = 1979
            j = 12.5e-3
            """
        assertNoSyntaxError(valid + "\n")
    }

    /// `text` may have schema problems (unknown keys) but no TOML syntax error.
    private func assertNoSyntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try ConfigLoader.parse(text, file: "ok.toml")
        } catch let e as ConfigErrors {
            XCTAssertFalse(e.diagnostics.contains { $0.message.contains("TOML syntax error") }, e.description, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    /// The preflight must not reject valid TOML where a `[` starts a line inside a string or a
    /// multi-line array.
    func testBracketsInsideStringsAndArraysAreNotHeaders() throws {
        let text = #"""
        # [!comment]
        [carousel]
        type = "linear"
        item_size = [
          200,
          150,
        ]
        [[item]]
        id = "a"
        title = """
        [!not a header]
        """
        subtitle = '''
        [=neither]'''
        [[item]]
        id = "b"
        title = "[!x]"
        """#
        let config = try ConfigLoader.parse(text, file: "ok.toml")
        XCTAssertEqual(config.items.map(\.id), ["a", "b"])
        XCTAssertEqual(config.items.first?.title, "[!not a header]\n")
    }
}
