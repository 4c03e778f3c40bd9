import XCTest
@testable import Input

final class InputSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
