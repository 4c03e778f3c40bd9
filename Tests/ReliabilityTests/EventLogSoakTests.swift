import Kiosk
import XCTest

/// The event log of a kiosk that runs for months must not grow with every event.
final class EventLogSoakTests: XCTestCase {
    func testLinesStayBoundedAndKeepTheLatest() throws {
        let log = try EventLog(path: nil, retainedLines: 1_000)
        for i in 0..<100_000 {
            log.write(time: Double(i), name: "tick")
            XCTAssertLessThanOrEqual(log.lines.count, 2_000)
        }
        XCTAssertGreaterThanOrEqual(log.lines.count, 1_000)
        XCTAssertEqual(log.lines.last, #"{"t":99999.0000,"event":"tick"}"#)
    }

    func testDefaultKeepsTenThousandLines() throws {
        let log = try EventLog(path: nil)
        for i in 0..<25_000 { log.write(time: Double(i), name: "e") }
        XCTAssertTrue((10_000...20_000).contains(log.lines.count), "\(log.lines.count)")
    }
}
