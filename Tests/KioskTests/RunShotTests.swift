import Foundation
import TestSupport
import XCTest

/// `kiosk-carousel run --backend headless --shot SECONDS=FILE.png` as a person runs it: a headless
/// run writes the screen at those times (docs said `backend = "headless"` writes PNG files; before
/// issue 27 `run` wrote none).
final class RunShotTests: CommandTestCase {
    override var configText: String { "[display]\nheadless_size = [64, 48]\n[[item]]\nid = \"a\"\n[[item]]\nid = \"b\"\n" }

    func run(_ arguments: [String]) throws -> ProductBinary.Result {
        try ProductBinary.run(["run", "--config", config, "--backend", "headless", "--log-level", "warning"] + arguments)
    }

    func testHeadlessRunWritesItsShots() throws {
        let r = try run(["--exit-after", "1.5", "--shot", "0.2=\(folder)/a.png", "--shot", "1=\(folder)/b.png"])
        XCTAssertEqual(r.status, 0, r.errors)
        for name in ["a.png", "b.png"] {
            let png = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], name)
            // IHDR: the headless size.
            XCTAssertEqual(Array(png[16..<24]), [0, 0, 0, 64, 0, 0, 0, 48], name)
        }
    }

    /// A shot that cannot be written is logged with its path and reason; the kiosk goes on to
    /// the end, and its exit status says a shot was lost.
    func testShotThatCannotBeWrittenIsLoggedAndFailsTheRun() throws {
        let r = try run(["--exit-after", "1", "--shot", "0.2=\(folder)/missing/a.png", "--shot", "0.4=\(folder)/b.png"])
        XCTAssertEqual(r.status, 1, r.errors)
        XCTAssertTrue(r.errors.contains("shot: \(folder)/missing/a.png: cannot create the file (No such file or directory)"), r.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/b.png"), "the later shot is still written")
    }

    func testShotAfterExitAfterIsRefusedWithRunsUsage() throws {
        let r = try run(["--exit-after", "1", "--shot", "3=\(folder)/late.png"])
        XCTAssertEqual(r.status, 64, r.errors)
        XCTAssertTrue(r.errors.hasPrefix("Error: --shot 3=\(folder)/late.png is after the end of the run (--exit-after 1): give --exit-after 3 or more\n"), r.errors)
        XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel run ["), r.errors)
    }

    /// --shot with another backend named is refused before anything opens, with run's usage.
    func testShotWithAScreenBackendIsRefused() throws {
        let r = try ProductBinary.run(["run", "--config", config, "--backend", "drm", "--shot", "1=\(folder)/a.png"])
        XCTAssertEqual(r.status, 64, r.errors)
        XCTAssertTrue(r.errors.hasPrefix("Error: --shot writes the headless screen: give --backend headless"), r.errors)
        XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel run ["), r.errors)
    }
}
