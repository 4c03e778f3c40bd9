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

    /// The clock is a value the display is given: a test (or a virtual-time driver) owns time.
    func testPacedHeadlessFollowsTheClockItIsGiven() throws {
        let clock = FakeClock()
        let d = HeadlessDisplay(width: 4, height: 4, refreshRate: 10, paced: true, clock: clock.read)
        var shown: [FrameShown] = []
        d.onFrameShown = { shown.append($0) }
        let frame = Canvas(width: 4, height: 4)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(shown, [FrameShown(sequence: 1, time: 100, timing: .submitted)])
        XCTAssertFalse(d.canPresent)
        XCTAssertEqual(try XCTUnwrap(d.nextWakeTime), 100.1, accuracy: 1e-9)
        clock.now = 100.1
        XCTAssertTrue(d.canPresent)
        XCTAssertEqual(d.presentedFrames, 1)
        XCTAssertEqual(d.lastCopiedPixels, 16)
    }
}
