import Display
import Foundation
import KioskConfig
import LinuxSystem
import TestSupport
import XCTest
@testable import Kiosk

/// `StartupTimeline`: the process's start read from `/proc/PID/stat` (the name may hold spaces
/// and parentheses), the steps' durations in the log line, and the line logged once, with the
/// first frame the kiosk presents (`StartupReportComponent`).
final class StartupTimelineTests: ConfigFolderTestCase {
    override var folderPrefix: String { "startup-timeline" }

    /// A `/proc/PID/stat` line whose command name is `name` and whose start time is `ticks`.
    private func stat(name: String, ticks: Int) -> String {
        // Fields 3..21, then 22 = starttime, then a few more.
        let before = ["S", "1", "305", "305", "0", "-1", "4194560", "1000", "0", "0", "0", "12", "3", "0", "0", "20", "0", "4", "0"]
        return "305 (\(name)) " + (before + ["\(ticks)", "123456789", "2000"]).joined(separator: " ") + "\n"
    }

    func testProcessStartIsFieldTwentyTwoCountedAfterTheNamesLastParenthesis() throws {
        for name in ["kiosk-carousel", "a b", "x) 7 (y", ")"] {
            let start = try XCTUnwrap(StartupTimeline.processStartTime(stat: stat(name: name, ticks: 1552),
                                                                        ticksPerSecond: 100, bootTimeNow: 20, monotonicNow: 19.5),
                                      "name \(name)")
            // Began 15.52 s after boot on the boot-time clock, which runs 0.5 s ahead of the monotonic one.
            XCTAssertEqual(start, 15.02, accuracy: 1e-9, "name \(name)")
        }
    }

    func testAStatThatCannotBeReadGivesNoStart() {
        XCTAssertNil(StartupTimeline.processStartTime(stat: "", ticksPerSecond: 100, bootTimeNow: 20, monotonicNow: 20))
        XCTAssertNil(StartupTimeline.processStartTime(stat: "305 (short) S 1 2 3\n", ticksPerSecond: 100, bootTimeNow: 20, monotonicNow: 20))
        XCTAssertNil(StartupTimeline.processStartTime(stat: stat(name: "k", ticks: -5), ticksPerSecond: 100, bootTimeNow: 20, monotonicNow: 20))
        XCTAssertNil(StartupTimeline.processStartTime(stat: stat(name: "k", ticks: 9000), ticksPerSecond: 100, bootTimeNow: 20, monotonicNow: 20),
                     "a start after now")
    }

    func testThisProcessBeganBeforeNow() throws {
        let start = try XCTUnwrap(StartupTimeline.processStartTime())
        let now = MonotonicClock.now()
        XCTAssertLessThanOrEqual(start, now)
        XCTAssertGreaterThan(start, now - 24 * 3600, "this test process began less than a day ago")
    }

    func testTheSummaryGivesEachStepFromTheEndOfTheOneBefore() {
        var t = StartupTimeline(processStart: 10.0, mainStart: 10.7, runStart: 10.85)
        t.mark("config", at: 11.16)
        t.mark("display", at: 11.21)
        t.mark("attach", at: 11.4)
        XCTAssertEqual(t.summary(shownAt: 12.31, drawing: 0.4),
                       "first frame on screen 2.31 s after the process began: 0.70 s before main (sandbox, libraries, runtime), "
                       + "arguments 0.15 s, config 0.31 s, display 0.05 s, attach 0.19 s, first frame 0.91 s (drawn and handed over in 0.40 s)")
        let noMain = StartupTimeline(processStart: 10.0, runStart: 10.85)
        XCTAssertEqual(noMain.summary(shownAt: 11.0, drawing: 0.1),
                       "first frame on screen 1.00 s after the process began: 0.85 s before run (sandbox, libraries, runtime, arguments), "
                       + "first frame 0.15 s (drawn and handed over in 0.10 s)")
        let unknown = StartupTimeline(processStart: nil, runStart: 5)
        XCTAssertEqual(unknown.summary(shownAt: 5.5, drawing: 0.25),
                       "first frame on screen 0.50 s after run began: first frame 0.50 s (drawn and handed over in 0.25 s)")
    }

    /// A helper thread (`run`'s fonts' thread) said step by step from `main`, with its counts once
    /// it has ended; while at work, what it has done so far; before it began, that it had not.
    func testAHelperThreadIsSaidStepByStepFromMain() {
        let record = StartupThreadRecord(name: "fonts' thread")
        XCTAssertEqual(record.summary(mainStart: 11.0), "fonts' thread not begun")
        record.begin(at: 11.01)
        XCTAssertEqual(record.summary(mainStart: 11.0), "fonts' thread from 0.01 s after main, still at work")
        record.mark("fontconfig", at: 11.32)
        XCTAssertEqual(record.summary(mainStart: 11.0), "fonts' thread from 0.01 s after main: fontconfig 0.31 s, still at work")
        record.mark("cairo and pango", at: 11.37)
        record.finish(accounting: ThreadAccounting(cpu: 0.25, runQueueWait: 0.03, majorFaults: 35, minorFaults: 900), at: 11.38)
        XCTAssertEqual(record.summary(mainStart: 11.0),
                       "fonts' thread from 0.01 s after main: fontconfig 0.31 s, cairo and pango 0.05 s, done 0.38 s after main "
                       + "(0.25 s on a CPU, 0.03 s waiting for one, 0.09 s blocked (35 page reads, 900 other faults))")

        var t = StartupTimeline(processStart: 10.0, mainStart: 11.0, runStart: 11.1)
        XCTAssertNil(t.threadsSummary(), "no helper threads: nothing added to the line")
        t.threads = [record, StartupThreadRecord(name: "other thread")]
        XCTAssertEqual(t.threadsSummary(), record.summary(mainStart: 11.0) + "; other thread not begun")
        let noMain = StartupTimeline(processStart: 10.0, runStart: 11.0)
        var withThread = noMain
        withThread.threads = [record]
        XCTAssertEqual(withThread.threadsSummary(), record.summary(mainStart: 11.0), "times from run when main's start is not known")
    }

    func testTheAccountingSummarySplitsTheMainThreadsTimeBeforeAndAfterMain() {
        let t = StartupTimeline(processStart: 10.0, mainStart: 11.0,
                                mainAccounting: ThreadAccounting(cpu: 0.4, runQueueWait: 0.3, majorFaults: 200, minorFaults: 3000), runStart: 11.1)
        XCTAssertEqual(t.accountingSummary(at: 13.0, shown: ThreadAccounting(cpu: 1.4, runQueueWait: 0.5, majorFaults: 260, minorFaults: 9000), processCPU: 3.1),
                       "main thread before main: 0.40 s on a CPU, 0.30 s waiting for one, 0.30 s blocked (200 page reads, 3000 other faults); "
                       + "from main to the first frame: 1.00 s on a CPU, 0.20 s waiting for one, 0.80 s blocked (60 page reads, 6000 other faults); "
                       + "all threads 3.10 s on a CPU")
        XCTAssertNil(StartupTimeline(processStart: 10.0, mainStart: 11.0, runStart: 11.1)
            .accountingSummary(at: 13.0, shown: ThreadAccounting(cpu: 1, runQueueWait: nil, majorFaults: 0), processCPU: 1),
                     "nothing to split without the counts at main")
    }

    func testTheKioskLogsItsStartOnceWithItsFirstFrame() throws {
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [200, 150]\n"
        for i in 0..<4 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let log = LogCapture()
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path),
                               display: HeadlessDisplay(width: 400, height: 240), inputs: [],
                               log: try EventLog(path: nil), logger: log.logger)
        let began = MonotonicClock.now()
        var timeline = StartupTimeline(processStart: began - 1, mainStart: began - 0.6,
                                       mainAccounting: .current(), runStart: began - 0.5)
        timeline.mark("config", at: began - 0.25)
        let fonts = StartupThreadRecord(name: "fonts' thread")
        fonts.begin(at: began - 0.59)
        fonts.mark("fontconfig", at: began - 0.3)
        fonts.finish(accounting: ThreadAccounting(cpu: 0.2, runQueueWait: 0.01, majorFaults: 3, minorFaults: 40), at: began - 0.29)
        timeline.threads = [fonts]
        app.startStartupReport(timeline)

        _ = app.beforeWait()                                   // the first frame
        app.session.requestFullFrame()
        _ = app.beforeWait()                                   // another: not logged again
        let lines = log.messages(.info).filter { $0.hasPrefix("start-up: ") }
        XCTAssertEqual(lines.count, 1, "\(log.lines)")
        let line = try XCTUnwrap(lines.first)
        XCTAssertTrue(line.hasPrefix("start-up: first frame on screen "), line)
        XCTAssertTrue(line.contains(" after the process began: 0.40 s before main (sandbox, libraries, runtime), arguments 0.10 s, config 0.25 s, attach "), line)
        XCTAssertTrue(line.contains(", first frame "), line)
        XCTAssertTrue(line.contains("; main thread before main: "), line)
        XCTAssertTrue(line.contains("); from main to the first frame: "), line)
        XCTAssertTrue(line.contains(" on a CPU; fonts' thread from "), line)
        XCTAssertTrue(line.hasSuffix("; " + fonts.summary(mainStart: began - 0.6)), line)
    }
}
