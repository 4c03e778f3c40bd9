@testable import Kiosk
import XCTest

final class QuietPeriodTests: XCTestCase {
    func testActsOnceAfterTheChangesSettle() {
        var q = QuietPeriod(quiet: 0.5, longest: 5)
        XCTAssertNil(q.due)
        XCTAssertFalse(q.take(100))
        q.note(1.0)
        q.note(1.2)
        XCTAssertEqual(q.due, 1.7)
        XCTAssertFalse(q.take(1.69))
        XCTAssertTrue(q.take(1.7))
        XCTAssertNil(q.due)
        XCTAssertFalse(q.take(2), "acts once per burst")
    }

    func testALongBurstIsActedOnWhileItRuns() {
        var q = QuietPeriod(quiet: 0.5, longest: 5)
        var t = 10.0
        q.note(t)
        while t < 14.9 { t += 0.1; q.note(t) }
        XCTAssertEqual(q.due!, 15, accuracy: 1e-9)
        XCTAssertTrue(q.take(15))
        q.note(15.05)
        XCTAssertEqual(q.due!, 15.55, accuracy: 1e-9, "a new burst starts its own count")
    }
}
