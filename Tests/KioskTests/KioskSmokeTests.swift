import XCTest
@testable import Kiosk

final class KioskSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
