import Foundation
import XCTest
@testable import KioskConfig

/// `[[schedule]]` and `[schedule_defaults]`: what loads, and what check-config says about empty
/// and overlapping windows, day names and item ids, at FILE:LINE:COLUMN.
final class ScheduleConfigTests: XCTestCase {
    let items = "[[item]]\nid = \"a\"\n[[item]]\nid = \"breakfast-1\"\n"

    func testWindowsAndDefaultsLoad() throws {
        let fixture = ConfigFixture()
        let c = try fixture.load(items + """
            [[schedule]]
            days = ["mon", "Tue", "wed", "thu", "fri"]
            from = "09:00"
            to = "18:00"
            [[schedule]]
            days = ["fri"]
            from = "22:00"
            to = "02:00"
            [[schedule]]
            days = ["sat"]
            from = "07:00"
            to = "24:00"
            items = ["breakfast-1"]
            [schedule_defaults]
            outside = "attract"
            wake_for = 30
            clock_grace = 0
            """)
        XCTAssertEqual(c.schedule, [
            ScheduleWindow(days: [.mon, .tue, .wed, .thu, .fri], from: 540, to: 1080),
            ScheduleWindow(days: [.fri], from: 1320, to: 120),
            ScheduleWindow(days: [.sat], from: 420, to: 1440, items: ["breakfast-1"]),
        ])
        XCTAssertTrue(c.schedule[1].crossesMidnight)
        XCTAssertEqual(c.scheduleDefaults.outside, .attract)
        XCTAssertEqual(c.scheduleDefaults.wakeFor, 30)
        XCTAssertEqual(c.scheduleDefaults.clockGrace, 0)
        XCTAssertEqual(try fixture.load(items).schedule, [], "no [[schedule]]: always open")
        XCTAssertEqual(try fixture.load(items).scheduleDefaults, ScheduleDefaults())
    }

    func testEmptyAndOverlappingWindowsAreReportedWhereTheyAre() {
        let fixture = ConfigFixture()
        XCTAssertEqual(fixture.report(items + """
            [[schedule]]
            days = ["mon", "tue"]
            from = "09:00"
            to = "12:00"
            [[schedule]]
            days = ["tue"]
            from = "11:30"
            to = "13:00"
            [[schedule]]
            from = "10:00"
            to = "10:00"
            [[schedule]]
            days = ["sun"]
            from = "23:00"
            to = "09:30"
            """), [
                "11:8: [[schedule]] #2 (tue 11:30–13:00) overlaps [[schedule]] #1 (mon,tue 09:00–12:00) from tue 11:30",
                "15:6: [[schedule]] #3 is empty: 'from' and 'to' are both 10:00 (a whole day is from = \"00:00\", to = \"24:00\")",
                "18:8: [[schedule]] #4 (sun 23:00–09:30) overlaps [[schedule]] #1 (mon,tue 09:00–12:00) from mon 09:00",
            ])
    }

    func testBadDaysAndTimes() {
        let fixture = ConfigFixture()
        XCTAssertEqual(fixture.report(items + """
            [[schedule]]
            days = ["mon", "wensday"]
            from = "9:00"
            to = "25:00"
            [[schedule]]
            days = ["thursday"]
            from = "24:00"
            to = "18:00"
            [[schedule]]
            days = []
            to = "18:00"
            [schedule_defaults]
            outside = "blnak"
            """), [
                "6:16: 'days' \"wensday\" is not a day; write one of sun, mon, tue, wed, thu, fri, sat; did you mean \"wed\"?",
                "7:8: 'from' \"9:00\" is not a time of day; write \"HH:MM\" in 24-hour form, e.g. \"09:30\" or \"18:00\"",
                "8:6: 'to' \"25:00\" is not a time of day; write \"HH:MM\" in 24-hour form, e.g. \"09:30\" or \"18:00\"",
                "10:9: 'days' \"thursday\" is not a day; write one of sun, mon, tue, wed, thu, fri, sat; did you mean \"thu\"?",
                "11:8: 'from' \"24:00\" is the end of a day; a window starts at \"00:00\"",
                "13:3: [[schedule]] #3 needs 'from'",
                "14:8: 'days' must name at least one day (sun, mon, tue, wed, thu, fri, sat)",
                "17:11: 'outside' \"blnak\" is not one of \"blank\", \"attract\", \"on\"; did you mean \"blank\"?",
            ])
    }

    func testWindowItemsMustExist() {
        let fixture = ConfigFixture()
        XCTAssertEqual(fixture.report(items + """
            [[schedule]]
            from = "07:00"
            to = "11:00"
            items = ["breakfast-l", "a"]
            [[schedule]]
            from = "11:00"
            to = "12:00"
            items = []
            """), [
                "8:10: [[schedule]] #1 names item \"breakfast-l\", but no item has that id; did you mean \"breakfast-1\"?",
                "12:9: [[schedule]] #2 names no items; leave 'items' out to show every item",
            ])
    }
}
