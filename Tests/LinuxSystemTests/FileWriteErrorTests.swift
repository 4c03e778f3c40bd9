import Foundation
import Glibc
import XCTest
@testable import LinuxSystem

/// Every file the program writes fails the same way: `PATH: reason (errno text)`, with the
/// path as given, never a temporary file's (issue 27).
final class FileWriteErrorTests: TemporaryFolderTestCase {
    func testDescriptionIsPathReasonAndErrnoText() {
        XCTAssertEqual(FileWriteError(path: "out/a.png", step: .create, errno: ENOENT).description,
                       "out/a.png: cannot create the file (No such file or directory)")
        XCTAssertEqual(FileWriteError(path: "b", step: .write, errno: ENOSPC).description,
                       "b: cannot write the file (No space left on device)")
    }

    func testAtomicFileNamesTheTargetAndLeavesNothingBehind() throws {
        XCTAssertThrowsError(try AtomicFile.write([1, 2, 3], to: folder + "/missing/a.png")) { e in
            XCTAssertEqual(e as? FileWriteError, FileWriteError(path: folder + "/missing/a.png", step: .create, errno: ENOENT))
        }
        // A folder where the file should go: the rename fails, the temporary file is removed.
        try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
        try FileManager.default.createFile(atPath: folder + "/taken/x", contents: Data()) ? () : XCTFail("setup")
        XCTAssertThrowsError(try AtomicFile.write([1], to: folder + "/taken")) { e in
            XCTAssertEqual((e as? FileWriteError)?.path, folder + "/taken")
            XCTAssertEqual((e as? FileWriteError)?.step, .replace)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["taken"])
        // A name without a folder is written in the current one.
        let here = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(here) }
        try AtomicFile.write([7, 8], to: "plain.bin")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/plain.bin")), Data([7, 8]))
    }

    func testOutputFileNamesThePathGiven() throws {
        XCTAssertThrowsError(try OutputFile(path: folder + "/missing/events.jsonl")) { e in
            XCTAssertEqual("\(e)", "\(folder)/missing/events.jsonl: cannot create the file (No such file or directory)")
        }
        let file = try OutputFile(path: folder + "/events.jsonl")
        try file.write("one\n")
        try file.write("two\n")
        file.close()
        XCTAssertEqual(try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8), "one\ntwo\n")
        XCTAssertThrowsError(try file.write("three\n")) { e in
            XCTAssertEqual("\(e)", "\(folder)/events.jsonl: cannot write the file (Bad file descriptor)")
        }
    }
}
