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

    /// The running kiosk's log holds a few lines, not 10,000, so its memory is flat from the
    /// first hour (an endurance run fits a slope to it).
    func testRunningKioskKeepsFewLines() throws {
        let log = try EventLog(path: nil, retainedLines: EventLog.runningKioskLines)
        for i in 0..<10_000 {
            log.write(time: Double(i), name: "current_index_changed", fields: [("index", String(i % 8))])
            XCTAssertLessThanOrEqual(log.lines.count, 2 * EventLog.runningKioskLines)
        }
        XCTAssertEqual(log.lines.last, #"{"t":9999.0000,"event":"current_index_changed","index":7}"#)
    }
}
