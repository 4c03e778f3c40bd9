import XCTest
@testable import Cards

final class CardsSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
