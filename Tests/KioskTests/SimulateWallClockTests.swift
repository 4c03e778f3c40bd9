import Foundation
import TestSupport
import XCTest

/// `kiosk-carousel simulate --wall-clock … --time-zone …` as a person runs it (the binary
/// `swift build --build-tests` puts next to the test bundle): a schedule across a
/// daylight-saving change, deterministically.
final class SimulateWallClockTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let r = try ProductBinary.run(arguments)
        return (r.status, r.output, r.errors)
    }

    /// Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST. Starting at 01:59 with a Sunday
    /// window 02:30–06:00, the kiosk is closed (blank) for one virtual minute, then the jump
    /// lands inside the window: it opens at virtual 60 s, local 03:00+02:00, and the screen wakes.
    func testScheduleAcrossSpringForward() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simwall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.toml").path
        try """
            [carousel]
            tick_hz = 10
            [[item]]
            id = "a"
            [[item]]
            id = "b"
            [[schedule]]
            days = ["sun"]
            from = "02:30"
            to = "06:00"
            [schedule_defaults]
            outside = "blank"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let args = ["simulate", "--config", config, "--size", "320x240", "--until", "90", "--events", "-",
                    "--wall-clock", "2026-03-29T01:59:00", "--time-zone", "Europe/Berlin"]
        let r = try run(args)
        XCTAssertEqual(r.status, 0, r.errors)
        let lines = r.output.split(separator: "\n").map(String.init).filter { $0.contains("schedule_") || $0.contains("screen_") }
        XCTAssertEqual(lines, [
            "{\"t\":0.0000,\"event\":\"schedule_closed\",\"outside\":\"blank\",\"local_time\":\"2026-03-29T01:59:00+01:00\"}",
            "{\"t\":0.0000,\"event\":\"screen_blanked\"}",
            "{\"t\":60.0000,\"event\":\"schedule_opened\",\"window\":1,\"from\":\"02:30\",\"to\":\"06:00\",\"local_time\":\"2026-03-29T03:00:00+02:00\"}",
            "{\"t\":60.0000,\"event\":\"screen_woke\"}",
        ])
        XCTAssertEqual(try run(args).output, r.output, "deterministic")
        // A local time inside the gap does not exist.
        let gap = try run(["simulate", "--config", config, "--wall-clock", "2026-03-29T02:30:00", "--time-zone", "Europe/Berlin"])
        XCTAssertNotEqual(gap.status, 0)
        XCTAssertTrue(gap.errors.contains("--wall-clock must be a local time"), gap.errors)
    }
}
