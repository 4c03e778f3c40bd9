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

    /// Without --seconds the recording runs until SIGINT, which ends it in order: the count is
    /// said and the exit code is 0. The signal is sent once record said it is waiting for a
    /// device (it reads its signals by then), whatever the machine's speed.
    func testSIGINTEndsARecordingInOrder() throws {
        let scratch = try ScratchFolder("record")
        defer { scratch.remove() }
        let config = try scratch.write("config.toml", "[input]\nseat = \"kiosk-test-empty-seat\"\n")
        let out = scratch.path + "/out.jsonl"
        let folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
        let p = Process()
        p.executableURL = folder.appendingPathComponent("kiosk-carousel")
        p.arguments = ["record", "--config", config, "--out", out, "--size", "800x480"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        var said = ""
        let deadline = Date().addingTimeInterval(60)
        while !said.contains("waiting for one to be plugged in"), Date() < deadline {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        XCTAssertTrue(said.contains("waiting for one to be plugged in"), said)
        kill(p.processIdentifier, SIGINT)
        said += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, said)
        XCTAssertEqual(p.terminationStatus, 0, said)
        XCTAssertTrue(said.hasSuffix("record: 0 events\n"), said)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "# kiosk-carousel record: screen 800x480, rotation 0\n")
    }

    /// The script file cannot be created: its path and the reason, in the shape of every file
    /// the program writes.
    func testOutputThatCannotBeCreatedNamesThePathAndTheReason() throws {
        let r = try ProductBinary.run(["record", "--out", "/nonexistent-folder/out.jsonl", "--seconds", "0.1", "--size", "800x480"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.errors, "Error: /nonexistent-folder/out.jsonl: cannot create the file (No such file or directory)\n")
    }
}
