import Foundation
import TestSupport
import XCTest

/// Issue 27: every command's `--help` reads well at 80 columns. ArgumentParser wraps each line
/// of a help text to the terminal's width, so a paragraph written with hard line breaks came out
/// ragged (`record --help`: "…[input.rotary] of the config, or the" / "config, or the" /
/// "options below, …"), and it never wraps the usage line (`record`'s was 330 characters).
final class CommandHelpTests: XCTestCase {
    /// Every command a person can run (README's list, `command-list`), the groups and the root.
    func commands() throws -> (leaves: [(words: [String], usage: String)], groups: [[String]]) {
        let list = try ProductBinary.run(["command-list"])
        XCTAssertEqual(list.status, 0, list.errors)
        let usages = list.output.components(separatedBy: "```\n")[1].split(separator: "\n").map(String.init)
        var leaves: [(words: [String], usage: String)] = []
        for row in list.output.split(separator: "\n") where row.hasPrefix("| `") {
            let name = row.dropFirst(3).prefix { $0 != "`" }
            let usage = try XCTUnwrap(usages.first { $0 == "kiosk-carousel \(name)" || $0.hasPrefix("kiosk-carousel \(name) ") }, String(name))
            leaves.append((name.split(separator: " ").map(String.init), usage))
        }
        XCTAssertGreaterThan(leaves.count, 10, "the list was read")
        return (leaves, [[], ["bench"]])
    }

    func help(_ words: [String]) throws -> [String] {
        let r = try ProductBinary.run(words + ["--help"], environment: ["COLUMNS": "80"])
        XCTAssertEqual(r.status, 0, "\(words) --help: \(r.errors)")
        return r.output.components(separatedBy: "\n")
    }

    /// The lines of `text` that are a fragment ArgumentParser made: a short line (under 20
    /// characters) right after a line it wrapped near the width, and followed by more of the same
    /// paragraph (a non-empty line at the same indentation). A paragraph's short last line is
    /// followed by a blank line, an option's by the next option.
    static func fragments(_ lines: [String]) -> [String] {
        func indent(_ s: String) -> Int { s.prefix { $0 == " " }.count }
        var out: [String] = []
        for n in lines.indices.dropFirst().dropLast() {
            let (a, b, c) = (lines[n - 1], lines[n], lines[n + 1])
            let text = b.trimmingCharacters(in: .whitespaces)
            if a.count > 60, !text.isEmpty, text.count < 20, !c.trimmingCharacters(in: .whitespaces).isEmpty, indent(c) == indent(b) {
                out.append("\(a)\n\(b)\n\(c)")
            }
        }
        return out
    }

    func testTheFragmentCheckFindsWhatRecordsHelpShowedBefore() {
        let before = ["Reads the devices the kiosk would read ([input] and [input.rotary] of the",
                      "config, or the",
                      "options below, which take precedence) until --seconds pass or SIGINT/SIGTERM,"]
        XCTAssertEqual(Self.fragments(before).count, 1)
        let option = ["  --size <size>           Panel size WIDTHxHEIGHT before rotation (default:",
                      "                          mode).",
                      "  --rotation <rotation>   Display rotation 0, 90, 180 or 270 (default:"]
        XCTAssertEqual(Self.fragments(option), [], "an option's short last line")
        XCTAssertEqual(Self.fragments(["A paragraph that ArgumentParser wrapped at the width of the terminal, at", "its end.", ""]), [])
    }

    func testEveryCommandsHelpFitsIn80ColumnsWithoutFragments() throws {
        let (leaves, groups) = try commands()
        for words in leaves.map(\.words) + groups {
            let lines = try help(words)
            for line in lines where line.count > 80 {
                XCTFail("kiosk-carousel \(words.joined(separator: " ")) --help: a line of \(line.count) characters:\n\(line)")
            }
            for f in Self.fragments(lines) {
                XCTFail("kiosk-carousel \(words.joined(separator: " ")) --help: a line broken mid-paragraph:\n\(f)")
            }
        }
    }

    /// Each command's usage line is README's (`CommandSynopsis`): what must be given, then
    /// `[options]`; short, and the same in `--help`, in option errors and in the README.
    func testEveryCommandsUsageLineIsTheReadmes() throws {
        for (words, usage) in try commands().leaves {
            XCTAssertTrue(try help(words).contains("USAGE: \(usage)"), "\(words): USAGE: \(usage)")
        }
    }
}
