import XCTest
@testable import Raster

final class RasterSmokeTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
