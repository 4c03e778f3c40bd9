import Foundation
import TestSupport
import XCTest

/// `kiosk-carousel record` as a person runs it.
final class RecordCommandTests: XCTestCase {
    /// On a seat with no input device, record said nothing (with --device it names each missing
    /// path): it says so now. A seat of its own name has no device on any machine.
    func testSeatWithoutDevicesIsSaid() throws {
        let scratch = try ScratchFolder("record")
        defer { scratch.remove() }
        let config = try scratch.write("config.toml", "[input]\nseat = \"kiosk-test-empty-seat\"\n")
        let r = try ProductBinary.run(["record", "--config", config, "--out", scratch.path + "/out.jsonl", "--seconds", "0.5", "--size", "800x480"])
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.errors.contains("record: no input device on seat kiosk-test-empty-seat"), r.errors)
        XCTAssertTrue(r.errors.contains("record: 0 events"), r.errors)
    }

    /// The script file cannot be created: its path and the reason, in the shape of every file
    /// the program writes.
    func testOutputThatCannotBeCreatedNamesThePathAndTheReason() throws {
        let r = try ProductBinary.run(["record", "--out", "/nonexistent-folder/out.jsonl", "--seconds", "0.1", "--size", "800x480"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.errors, "Error: /nonexistent-folder/out.jsonl: cannot create the file (No such file or directory)\n")
    }
}
