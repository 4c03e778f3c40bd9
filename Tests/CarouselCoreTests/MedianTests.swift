import XCTest
@testable import CarouselCore

final class MedianTests: XCTestCase {
    func testMiddleValueMeanOfTheTwoMiddleOnesAndNoneWhenEmpty() {
        XCTAssertEqual([3.0, 1, 2].median(), 2)
        XCTAssertEqual([4.0, 1, 3, 2].median(), 2.5)
        XCTAssertEqual([7.0].median(), 7)
        XCTAssertNil([Double]().median())
    }
}
