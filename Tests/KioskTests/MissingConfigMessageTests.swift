import Foundation
import TestSupport
import XCTest

/// A config file that is not there: the path and "no such file", with how to give another file
/// only where the program chose the path (issue 27). `check-config FILE`: CheckConfigCommandTests.
final class MissingConfigMessageTests: CommandTestCase {
    /// The person typed `--config FILE`: advice to give `--config FILE` would be odd.
    func testConfigOptionGivesNoHint() throws {
        let missing = folder + "/absent.toml"
        let r = try ProductBinary.run(["simulate", "--config", missing, "--until", "0"])
        XCTAssertEqual(r.status, 1, r.errors)
        XCTAssertEqual(r.errors, "\(missing):0:0: no such file\n")
    }

    /// The environment chose the file: the message says so and how to give another.
    func testEnvironmentVariableIsNamed() throws {
        let missing = folder + "/absent.toml"
        let r = try ProductBinary.run(["layout", "--scroll-offset", "0"], environment: ["KIOSK_CAROUSEL_CONFIG": missing])
        XCTAssertEqual(r.status, 1, r.errors)
        XCTAssertEqual(r.errors, "\(missing):0:0: no such file (named by $KIOSK_CAROUSEL_CONFIG: set it to the config file, or give --config FILE)\n")
    }
}
