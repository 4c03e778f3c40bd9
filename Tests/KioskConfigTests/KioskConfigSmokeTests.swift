import XCTest
@testable import KioskConfig

final class KioskConfigSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
