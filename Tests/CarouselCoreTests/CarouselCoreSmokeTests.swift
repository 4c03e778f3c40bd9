import XCTest
@testable import CarouselCore

final class CarouselCoreSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
