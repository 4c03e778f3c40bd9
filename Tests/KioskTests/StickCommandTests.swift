import Foundation
import XCTest
@testable import Kiosk

/// The USB import's programs run without Foundation's `Process` (docs/usb.md): their exit
/// status, stdout and stderr, and a signal's end.
final class StickCommandTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stick-command-\(UUID().uuidString)").path

    override func tearDown() { try? FileManager.default.removeItem(atPath: scratch) }

    func testTheStatusAndBothOutputsComeBackAndTheirFilesGo() throws {
        let r = try StickCommand.run(["sh", "-c", "echo out; echo err >&2; exit 3"], scratch: scratch)
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.output, "out\n")
        XCTAssertEqual(r.errors, "err\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch), [])
    }

    func testASignalEndsAs128PlusItsNumber() throws {
        XCTAssertEqual(try StickCommand.run(["sh", "-c", "kill -TERM $$"], scratch: scratch).status, 128 + SIGTERM)
    }

    func testAProgramThatIsNotThereThrows() {
        XCTAssertThrowsError(try StickCommand.run(["no-such-program-\(UUID().uuidString)"], scratch: scratch))
    }
}
