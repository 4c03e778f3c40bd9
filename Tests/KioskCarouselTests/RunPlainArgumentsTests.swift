import ArgumentParser
import TestSupport
import XCTest
@testable import kiosk_carousel

/// `run`'s options read plainly (main.swift, without swift-argument-parser) are the options the
/// parser reads from the same arguments; whatever the plain reading does not take is left to the
/// parser; and a run that fails ends the same way by either path.
final class RunPlainArgumentsTests: XCTestCase {
    func testThePlainReadingGivesWhatTheParserGives() throws {
        let lists: [[String]] = [
            [],
            ["--config", "/etc/kiosk-carousel/config.toml"],
            ["--config=/srv/kiosk/my config.toml", "--backend", "drm"],
            ["--backend=headless", "--shot", "1=a.png", "--shot=2.5=out/b.png", "--exit-after", "3"],
            ["--shot", "1=a.png"],
            ["--events", "/run/kiosk/events.jsonl", "--latency-trace", "latency.jsonl", "--log-level", "debug"],
            ["--log-level=7", "--exit-after=0", "--backend", "fbdev"],
            ["--exit-after", "1e1", "--backend", "auto"],
        ]
        for list in lists {
            let plain = try XCTUnwrap(RunOptions(plainArguments: list), "plain reading of \(list)")
            let parsed = try RunCommand.parse(list).options
            XCTAssertEqual(plain, parsed, "\(list)")
        }
    }

    func testAnythingElseIsLeftToTheParser() {
        let lists: [[String]] = [
            ["--help"], ["-h"], ["help"], ["--generate-completion-script", "bash"], ["--experimental-dump-help"],
            ["--config"], ["--config="], ["--config", ""], ["--config", "--backend", "drm"], ["--events", "-"], ["-c", "x.toml"], ["config.toml"],
            ["--", "--config", "x.toml"], ["--unknown", "x"], ["--config", "a.toml", "--config", "b.toml"],
            ["--backend", "x11"], ["--log-level", "loud"], ["--exit-after", "soon"], ["--exit-after", "-1"],
            ["--exit-after=-1"], ["--exit-after", "nan"], ["--exit-after=inf"],
            ["--backend", "drm", "--shot", "1=a.png"], ["--exit-after", "1", "--shot", "2=a.png"], ["--shot", "a.png"],
        ]
        for list in lists { XCTAssertNil(RunOptions(plainArguments: list), "\(list) is the parser's to read") }
    }

    /// An error thrown by the run (its event log cannot be opened) ends the program with the same
    /// words and status whether the plain reading or the parser read the arguments (the option
    /// given twice sends the same run to the parser).
    func testAFailedRunEndsTheSameByEitherPath() throws {
        let fixture = try ScratchFolder("run-plain-arguments")
        defer { fixture.remove() }
        let config = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n")
        let common = ["run", "--config", config, "--exit-after", "0", "--events", fixture.path + "/no-such-folder/events.jsonl"]
        let plain = try ProductBinary.run(common + ["--backend", "headless"])
        let parsed = try ProductBinary.run(common + ["--backend", "headless", "--backend", "headless"])
        XCTAssertNotEqual(plain.status, 0, plain.errors)
        XCTAssertEqual(plain.status, parsed.status)
        let errorLine = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("Error:") } }
        XCTAssertFalse(errorLine(plain.errors).isEmpty, plain.errors)
        XCTAssertEqual(errorLine(plain.errors), errorLine(parsed.errors))
    }
}
