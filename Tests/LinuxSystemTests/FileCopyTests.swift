import Foundation
import Glibc
import XCTest
@testable import LinuxSystem

/// `FileCopy`: a file copied whole into a new file, flushed, with the one write loop
/// (`writeWhole`) `AtomicFile` uses; failures are `SystemCallError`s naming the file the call
/// was made on, errno kept as a number (issue 28 §4).
final class FileCopyTests: TemporaryFolderTestCase {
    func testCopiesThroughASmallBufferWholeWithMode0644() throws {
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        try bytes.write(to: URL(fileURLWithPath: folder + "/a"))
        var buffer = [UInt8](repeating: 0, count: 64)   // many reads, the last one short
        XCTAssertEqual(try FileCopy.copy(folder + "/a", to: folder + "/b", buffer: &buffer), 1000)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/b")), bytes)
        var st = stat()
        XCTAssertEqual(stat(folder + "/b", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o644)
        try FileCopy.syncFolder(folder)
    }

    func testFailuresNameTheFileTheCallWasMadeOn() throws {
        var buffer = [UInt8](repeating: 0, count: 64)
        XCTAssertThrowsError(try FileCopy.copy(folder + "/none", to: folder + "/b", buffer: &buffer)) { e in
            XCTAssertEqual(e as? SystemCallError, SystemCallError(call: "open", errno: ENOENT, subject: folder + "/none"))
            XCTAssertEqual("\(e)", "\(folder)/none: open: No such file or directory")
        }
        // The target is a new file: one already there is left alone.
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/a"))
        try Data([9, 9]).write(to: URL(fileURLWithPath: folder + "/b"))
        XCTAssertThrowsError(try FileCopy.copy(folder + "/a", to: folder + "/b", buffer: &buffer)) { e in
            XCTAssertEqual(e as? SystemCallError, SystemCallError(call: "open", errno: EEXIST, subject: folder + "/b"))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/b")), Data([9, 9]))
        // A folder as the source: open works, read fails.
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: false)
        XCTAssertThrowsError(try FileCopy.copy(folder + "/dir", to: folder + "/c", buffer: &buffer)) { e in
            XCTAssertEqual(e as? SystemCallError, SystemCallError(call: "read", errno: EISDIR, subject: folder + "/dir"))
        }
        XCTAssertThrowsError(try FileCopy.syncFolder(folder + "/none")) { e in
            XCTAssertEqual(e as? SystemCallError, SystemCallError(call: "open", errno: ENOENT, subject: folder + "/none"))
        }
    }

    func testTheWriteLoopGivesTheErrnoOfTheWriteThatFailed() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try XCTSkipIf(full < 0, "no /dev/full")
        defer { close(full) }
        XCTAssertEqual([UInt8](repeating: 1, count: 10).withUnsafeBytes { writeWhole(full, $0) }, ENOSPC)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        XCTAssertEqual([UInt8](repeating: 1, count: 10).withUnsafeBytes { writeWhole(null, $0) }, 0)
    }

    func testErrnoTextHasOneHelper() {
        XCTAssertEqual(SystemCallError.message(for: ENOENT), "No such file or directory")
        XCTAssertEqual(FileWriteError(path: "p", step: .flush, errno: EIO).reason, SystemCallError.message(for: EIO))
    }
}
