import Foundation
import TestSupport
import XCTest

/// A wrong option is reported with the usage of the command the person typed, not the top-level
/// `kiosk-carousel <subcommand>` one (issue 27): every option check is in the command's
/// `validate()`. A command that fails later, for a reason that is no wrong option, prints
/// `Error: …` without any usage.
final class CommandOptionErrorTests: CommandTestCase {
    /// Runs `arguments` and checks it is refused with `message` (the start of the error) and
    /// `command`'s usage.
    func assertRefused(_ arguments: [String], _ message: String, usage command: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try ProductBinary.run(arguments)
        XCTAssertEqual(r.status, 64, "\(arguments): \(r.errors)", file: file, line: line)
        XCTAssertTrue(r.errors.hasPrefix("Error: \(message)"), "\(arguments): \(r.errors)", file: file, line: line)
        XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel \(command) "), "\(arguments): \(r.errors)", file: file, line: line)
        XCTAssertFalse(r.errors.contains("<subcommand>"), "\(arguments): \(r.errors)", file: file, line: line)
    }

    func testDisplayTestShotAndHandoverErrorsShowDisplayTestsUsage() throws {
        let test = ["display-test", "--config", config, "--seconds", "5"]
        try assertRefused(test + ["--shot", "soon=a"], "--shot must look like 1.5=name, not 'soon=a'", usage: "display-test")
        try assertRefused(test + ["--shot", "1=a", "--shot", "5=b"], "--shot 5=b is not before the end (--seconds 5)", usage: "display-test")
        try assertRefused(test + ["--handover", "6=true"],
                          "--handover must look like 2.5=COMMAND with a time before --seconds, not '6=true'", usage: "display-test")
        try assertRefused(test + ["--handover", "true"],
                          "--handover must look like 2.5=COMMAND with a time before --seconds, not 'true'", usage: "display-test")
    }

    func testBenchOptionErrorsShowTheBenchCommandsUsage() throws {
        try assertRefused(["bench", "scale", "--rotation", "45"], "--rotation must be 0, 90, 180 or 270, not 45", usage: "bench scale")
        try assertRefused(["bench", "scale", "--layouts", "coverflow,spiral"],
                          "--layouts: unknown layout type 'spiral' (one of linear, rotary, ",
                          usage: "bench scale")
        try assertRefused(["bench", "scale", "--size", "0x0"], "The value '0x0' is invalid for '--size <size>': a size must look like 1280x720 (1 to 16384 each), not '0x0'",
                          usage: "bench scale")
        try assertRefused(["bench", "cards", "--runs", "0"], "--runs, --items, --cache-mb, --workers and --visible must be positive", usage: "bench cards")
        try assertRefused(["bench", "video", "--seconds", "0"], "--seconds must be positive and --drag-frames above 10", usage: "bench video")
        try assertRefused(["bench", "perf-table", "--config", config, "--sizes", "800x480,big"],
                          "--sizes: a size must look like 1280x720 (1 to 16384 each), not 'big'", usage: "bench perf-table")
        try assertRefused(["bench", "perf-table", "--config", config, "--types", "spiral"],
                          "--types: unknown layout type 'spiral' (one of linear, rotary, ",
                          usage: "bench perf-table")
        try assertRefused(["bench", "suite", "--only", "nothing"], "--only nothing: no such scene (the scenes are ", usage: "bench suite")
    }

    /// The usage shown with an error is README's line (what must be given, then `[options]`),
    /// and `--help` names what `--config` takes (it showed `--config <config>`).
    func testUsageNamesTheConfigOptionsValue() throws {
        try assertRefused(["layout", "--config", config, "--scroll-offset", "nan"], "--scroll-offset must be a finite number", usage: "layout")
        let r = try ProductBinary.run(["layout", "--config", config, "--scroll-offset", "nan"])
        XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel layout --scroll-offset OFFSET [options]\n"), r.errors)
        XCTAssertTrue(try ProductBinary.run(["layout", "--help"]).output.contains("  --config <file> "))
    }

    /// Not an option error: the file named cannot be used. Its reason, no usage.
    func testBenchFailuresAfterTheOptionsShowNoUsage() throws {
        let scene = folder + "/absent.json"
        let composite = try ProductBinary.run(["bench", "composite", scene, "--frames", "1"])
        XCTAssertEqual(composite.status, 1, composite.errors)
        XCTAssertEqual(composite.errors, "Error: \(scene): cannot read the file\n")
        let suite = try ProductBinary.run(["bench", "suite", "--scenes", folder + "/absent"])
        XCTAssertEqual(suite.status, 1, suite.errors)
        XCTAssertEqual(suite.errors, "Error: \(folder)/absent: opendir: No such file or directory\n")
        // This test's config has no items.
        let table = try ProductBinary.run(["bench", "perf-table", "--config", config])
        XCTAssertEqual(table.status, 1, table.errors)
        XCTAssertEqual(table.errors, "Error: \(config): the config has no items to draw\n")
    }
}
