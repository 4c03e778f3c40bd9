import XCTest
@testable import LinuxSystem

/// `/proc` files taken apart on their bytes (`ProcNumbers`), as the start-up line reads them.
final class ProcNumbersTests: XCTestCase {
    private func fields(_ text: String) -> [String] {
        ProcNumbers.fields(Array(text.utf8)[...]).map { String(decoding: $0, as: UTF8.self) }
    }

    func testFieldsAreSeparatedByRunsOfBlanksAndNewlines() {
        XCTAssertEqual(fields("1520330 250000000 12\n"), ["1520330", "250000000", "12"])
        XCTAssertEqual(fields("  a \t b\n\nc"), ["a", "b", "c"])
        XCTAssertEqual(fields(""), [])
        XCTAssertEqual(fields(" \n"), [])
        // A slice that does not start at 0 (what follows a `/proc/PID/stat` name).
        let bytes = Array("305 (k) S 1".utf8)
        XCTAssertEqual(ProcNumbers.fields(bytes[7...]).map { String(decoding: $0, as: UTF8.self) }, ["S", "1"])
    }

    func testUnsignedNumbersOnly() {
        func n(_ s: String) -> UInt64? { ProcNumbers.unsigned(Array(s.utf8)[...]) }
        XCTAssertEqual(n("0"), 0)
        XCTAssertEqual(n("18446744073709551615"), UInt64.max)
        XCTAssertNil(n("18446744073709551616"), "too large for 64 bits")
        XCTAssertNil(n("-5"))
        XCTAssertNil(n("12x"))
        XCTAssertNil(n(""))
    }

    func testAFileIsReadWholeOrNotAtAll() throws {
        let stat = try XCTUnwrap(ProcNumbers.read("/proc/self/stat"))
        XCTAssertEqual(stat.last, UInt8(ascii: "\n"))
        XCTAssertTrue(String(decoding: stat, as: UTF8.self).hasPrefix("\(getpid()) ("))
        XCTAssertEqual(ProcNumbers.read("/proc/self/stat", capacity: 5)?.count, 5)
        XCTAssertNil(ProcNumbers.read("/nonexistent/stat"))
    }
}
