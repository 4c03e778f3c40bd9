import Glibc
import XCTest
@testable import Display

/// A display error from a failed call keeps the errno as a number; `WORDS: strerror` is made
/// only when printed (issue 28 §4).
final class DisplayErrorErrnoTests: XCTestCase {
    func testTheErrnoIsKeptAndTheMessageKeepsItsShape() {
        let e = DisplayError(.failed, "poll failed", errno: EFAULT)
        XCTAssertEqual(e.errno, EFAULT)
        XCTAssertEqual(e.description, "poll failed: Bad address")
        XCTAssertNil(DisplayError(.busy, "another program owns the display").errno)
        XCTAssertEqual(DisplayError("plain words").description, "plain words")
    }
}
