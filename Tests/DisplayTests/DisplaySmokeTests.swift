import XCTest
@testable import Display

final class DisplaySmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
