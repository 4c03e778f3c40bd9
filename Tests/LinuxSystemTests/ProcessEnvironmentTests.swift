import Foundation
import XCTest
@testable import LinuxSystem

final class ProcessEnvironmentTests: XCTestCase {
    /// The same variables as Foundation's `ProcessInfo`, a value set here among them.
    func testTheEnvironmentIsFoundationsOwn() {
        setenv("KIOSK_ENVIRONMENT_TEST", "a=b c", 1)
        defer { unsetenv("KIOSK_ENVIRONMENT_TEST") }
        let variables = ProcessEnvironment.current()
        XCTAssertEqual(variables["KIOSK_ENVIRONMENT_TEST"], "a=b c")
        XCTAssertEqual(variables, ProcessInfo.processInfo.environment)
    }

    func testEntriesSplitAtTheirFirstEquals() {
        XCTAssertEqual(ProcessEnvironment.split("NAME=value")?.0, "NAME")
        XCTAssertEqual(ProcessEnvironment.split("NAME=value")?.1, "value")
        XCTAssertEqual(ProcessEnvironment.split("NAME=")?.1, "")
        XCTAssertEqual(ProcessEnvironment.split("N=a=b")?.1, "a=b")
        XCTAssertNil(ProcessEnvironment.split("NOVALUE"))
        XCTAssertNil(ProcessEnvironment.split("=value"))
    }
}
