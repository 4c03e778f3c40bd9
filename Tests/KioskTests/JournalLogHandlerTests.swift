import Foundation
import Logging
import XCTest
@testable import Kiosk

final class JournalLogHandlerTests: XCTestCase {
    /// Collects the handler's output lines.
    private final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ s: String) { lock.lock(); text += s; lock.unlock() }
        var value: String { lock.lock(); defer { lock.unlock() }; return text }
    }

    private func logger(_ sink: Sink, style: JournalLogHandler.Style, level: Logger.Level = .trace) -> Logger {
        Logger(label: "kiosk.test") { label in JournalLogHandler(label: label, level: level, style: style, output: { sink.append($0) }) }
    }

    func testJournalPrefixesForEveryLevel() {
        let sink = Sink()
        let log = logger(sink, style: .journal)
        log.trace("t")
        log.debug("d")
        log.info("i")
        log.notice("n")
        log.warning("w")
        log.error("e")
        log.critical("c")
        XCTAssertEqual(sink.value, """
            <7>kiosk.test: t
            <7>kiosk.test: d
            <6>kiosk.test: i
            <5>kiosk.test: n
            <4>kiosk.test: w
            <3>kiosk.test: e
            <2>kiosk.test: c

            """)
    }

    func testLevelFilterMetadataAndMultiLine() {
        let sink = Sink()
        var log = logger(sink, style: .journal, level: .warning)
        log[metadataKey: "item"] = "3"
        log.info("hidden")
        log.error("two\nlines", metadata: ["pid": "12"])
        XCTAssertEqual(sink.value, "<3>kiosk.test: two\n<3>kiosk.test: lines item=3 pid=12\n")
    }

    func testPlainStyleForTerminals() {
        let sink = Sink()
        logger(sink, style: .plain).warning("careful")
        XCTAssertEqual(sink.value, "warning kiosk.test: careful\n")
        XCTAssertEqual(JournalLogHandler.Style.automatic(environment: ["JOURNAL_STREAM": "8:1234"]), .journal)
    }

    func testLogLevelParsing() throws {
        XCTAssertEqual(try KioskLogging.parseLevel("DEBUG"), .debug)
        XCTAssertEqual(try KioskLogging.parseLevel("warn"), .warning)
        XCTAssertEqual(try KioskLogging.parseLevel("err"), .error)
        XCTAssertEqual(try KioskLogging.parseLevel("3"), .error)
        XCTAssertEqual(try KioskLogging.parseLevel("trace"), .trace)
        XCTAssertEqual(try KioskLogging.parseLevel("notice"), .notice)
        XCTAssertThrowsError(try KioskLogging.parseLevel("loud")) {
            XCTAssertTrue("\($0)".contains("unknown log level 'loud'"))
        }
    }
}
