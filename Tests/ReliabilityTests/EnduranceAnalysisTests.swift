import Foundation
import XCTest

/// The endurance run's fit and verdict (Tests/endurance/endurance_analysis.py, docs/reliability.md
/// "Endurance") are Python, as the rest of the run's host side; their unit tests
/// (Tests/endurance/test_endurance_analysis.py: flat series with noise pass, slow leaks fail, a
/// step after the warm-up is a step, the frame quantiles from histogram buckets) run here so
/// that `swift test` runs them.
final class EnduranceAnalysisTests: XCTestCase {
    func testTheEnduranceVerdictsOwnTests() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("endurance").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "unittest", "discover", "-s", folder, "-p", "test_*.py"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("OK"), text)
    }
}
