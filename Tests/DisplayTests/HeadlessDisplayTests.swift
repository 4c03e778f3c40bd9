import CarouselCore
import Raster
import XCTest
@testable import Display

/// `HeadlessDisplay`: paced like a screen for the real loop, unpaced for `simulate`.
final class HeadlessDisplayTests: XCTestCase {
    func testPacedHeadlessCapsAtTheRefreshRateAndSaysWhenTheNextFrameMayGo() throws {
        let d = HeadlessDisplay(width: 4, height: 4, refreshRate: 10, paced: true)
        XCTAssertTrue(d.canPresent)
        XCTAssertNil(d.nextWakeTime)
        let frame = Canvas(width: 4, height: 4)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertFalse(d.canPresent, "a tenth of a second has not passed")
        XCTAssertNotNil(d.nextWakeTime)
        Thread.sleep(forTimeInterval: 0.11)
        XCTAssertTrue(d.canPresent)
    }

    func testUnpacedHeadlessTakesEveryFrameAndReportsEach() throws {
        let d = HeadlessDisplay(width: 4, height: 4)
        var shown: [UInt64] = []
        d.onFrameShown = { XCTAssertEqual($0.timing, .submitted); shown.append($0.sequence) }
        let frame = Canvas(width: 4, height: 4)
        for _ in 0..<3 {
            XCTAssertTrue(d.canPresent)
            try d.present(frame, damage: [frame.bounds])
        }
        XCTAssertEqual(d.frameSequence, 3)
        XCTAssertEqual(shown, [1, 2, 3])
        XCTAssertNil(d.nextWakeTime)
    }
}
