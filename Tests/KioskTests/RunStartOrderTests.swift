import Foundation
import TestSupport
import XCTest

/// `run` starts with the file read once without its fonts looked up and its clips opened, and
/// checks them after the first frame (fontconfig loads meanwhile: docs/start-up.md, stops 47
/// and 71); its start-up line says so, step by step. The input devices open after the first
/// frame. A file that does not read the first time is checked whole at once.
final class RunStartOrderTests: CommandTestCase {
    override var configText: String { "[display]\nheadless_size = [64, 48]\n[[item]]\nid = \"a\"\ntitle = \"A\"\n" }

    private func startupLine(of config: String) throws -> (line: String, errors: String) {
        let r = try ProductBinary.run(["run", "--config", config, "--backend", "headless", "--exit-after", "0.3"])
        XCTAssertEqual(r.status, 0, r.errors)
        let line = r.errors.split(separator: "\n").first { $0.contains("start-up: first frame on screen") }
        return (String(try XCTUnwrap(line, r.errors)), r.errors)
    }

    /// The steps' names in the order the line gives them (before the main thread's accounting,
    /// which follows a `; `).
    private func steps(_ line: String) -> [String] {
        guard let colon = line.range(of: "after the process began: ") else { return [] }
        let stepText = line[colon.upperBound...].components(separatedBy: "; ")[0]
        return stepText.components(separatedBy: ", ").compactMap { part in
            part.range(of: #" [0-9]+\.[0-9]{2} s"#, options: .regularExpression).map { String(part[..<$0.lowerBound]) }
        }
    }

    func testTheFirstFrameComesBeforeTheFontsAndClipsAreChecked() throws {
        let (line, errors) = try startupLine(of: config)
        // The input devices are opened after the first frame, in the loop's first pass.
        let lines = errors.split(separator: "\n").map(String.init)
        let shown = try XCTUnwrap(lines.firstIndex { $0.contains("start-up: first frame on screen") })
        let opened = try XCTUnwrap(lines.firstIndex { $0.range(of: #"input: [0-9]+ source\(s\) opened [0-9.]+ s, after the first frame"#, options: .regularExpression) != nil }, errors)
        XCTAssertGreaterThan(opened, shown, errors)
        XCTAssertEqual(steps(line), ["arguments", "config", "display", "components", "attach", "first frame"], line)
        // Then where the main thread's time went, before main (from the fork) and after it, and
        // the fonts' thread, step by step from main (its fonts, then the first frame drawn ahead
        // of it), with where its time went.
        XCTAssertNotNil(line.range(of: #"\(drawn and handed over in [0-9.]+ s\); main thread before main: [0-9.]+ s on a CPU, "#
                                   + #"([0-9.]+ s waiting for one, [0-9.]+ s blocked|[0-9.]+ s off it) \([0-9]+ page reads?, [0-9]+ other faults?\); "#
                                   + #"from main to the first frame: [0-9.]+ s on a CPU, .*; all threads [0-9.]+ s on a CPU; "#
                                   + #"fonts' thread from [0-9.]+ s after main(: fontconfig [0-9.]+ s(, fontconfig's families [0-9.]+ s)?(, cairo and pango [0-9.]+ s)?"#
                                   + #"(, font map [0-9.]+ s)?(, families [0-9.]+ s)?"#
                                   // Then the first frame's title and badge drawn for it, once the screen is open.
                                   + #"(, waiting for the screen [0-9.]+ s)?(, first frame ahead [0-9.]+ s)?)?"#
                                   // Done by the first frame in nearly every start; on a busy machine it may be a step behind.
                                   + #"(, done [0-9.]+ s after main \([0-9.]+ s on a CPU, "#
                                   + #"([0-9.]+ s waiting for one, [0-9.]+ s blocked|[0-9.]+ s off it) \([0-9]+ page reads?, [0-9]+ other faults?\)\)|, still at work)$"#,
                                   options: .regularExpression), line)
    }

    /// A font that is not installed is found by the second reading, after the first frame: the
    /// problem is logged at its place and the screen shows the problem card (not the carousel).
    func testAFontProblemIsFoundAfterTheFirstFrame() throws {
        let bad = try scratch.write("font.toml", configText + "[theme.title_overlay]\nfont = \"No Such Font Family 12\"\n")
        let shown = "\(bad) has 1 problem(s): showing them on the screen until the file is fixed"
        let r = try ProductBinary.run(["run", "--config", bad, "--backend", "headless"], untilErrorsContain: shown)
        let lines = r.errors.split(separator: "\n").map(String.init)
        let first = try XCTUnwrap(lines.firstIndex { $0.contains("start-up: first frame on screen") }, "step 1: the first frame\n" + r.errors)
        let checked = try XCTUnwrap(lines.firstIndex { $0.contains("start-up: fonts and clips checked after the first frame in ") && $0.hasSuffix(": 1 problem(s)") },
                                    "step 2: the check after it\n" + r.errors)
        XCTAssertLessThan(first, checked, r.errors)
        XCTAssertTrue(r.errors.contains("\(bad):7:8: 'font' \"No Such Font Family 12\" is not installed"),
                      "step 3: the problem at its place\n" + r.errors)
        XCTAssertTrue(r.errors.contains(shown), "step 4: the problem card\n" + r.errors)
        XCTAssertFalse(steps(lines[first]).contains("fonts and clips"), lines[first])
        XCTAssertEqual(r.status, 0, "SIGTERM ends it with 0\n" + r.errors)
    }

    /// `--shot` frames are the same in every run: there the file is checked whole before the
    /// first frame, which shows the problem card.
    func testARunWithShotsChecksTheFontsBeforeTheFirstFrame() throws {
        let bad = try scratch.write("font.toml", configText + "[theme.title_overlay]\nfont = \"No Such Font Family 12\"\n")
        let shot = scratch.path + "/shot.png"
        let r = try ProductBinary.run(["run", "--config", bad, "--backend", "headless", "--exit-after", "0.3", "--shot", "0=\(shot)"])
        XCTAssertEqual(r.status, 0, r.errors)
        let line = try XCTUnwrap(r.errors.split(separator: "\n").first { $0.contains("start-up: first frame on screen") }, r.errors)
        XCTAssertEqual(steps(String(line)), ["arguments", "config", "display", "fonts and clips", "components", "attach", "first frame"],
                       String(line))
        XCTAssertTrue(r.errors.contains("showing the problems of \(bad) on the screen"), r.errors)
        XCTAssertFalse(r.errors.contains("fonts and clips checked after the first frame"), r.errors)
    }

    /// A file with a problem of its own (an unknown key) is checked whole at once, so that every
    /// problem is listed, its font's too; there is no later step for it.
    func testAFileThatDoesNotReadIsCheckedWholeAtOnce() throws {
        let bad = try scratch.write("broken.toml", "[theme.title_overlay]\nfont = \"No Such Font Family 12\"\n[[item]]\nspeed = 3\n")
        let (line, errors) = try startupLine(of: bad)
        XCTAssertTrue(errors.contains("\(bad):2:8: 'font' \"No Such Font Family 12\" is not installed"), errors)
        XCTAssertTrue(errors.contains("\(bad):4:1: unknown key 'speed' in [[item]] #1"), errors)
        XCTAssertTrue(errors.contains("\(bad) has 2 problem(s)"), errors)
        XCTAssertEqual(steps(line), ["arguments", "config", "display", "components", "attach", "first frame"], line)
    }
}
