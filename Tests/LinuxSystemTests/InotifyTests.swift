import Foundation
import LinuxSystem
import XCTest

final class InotifyTests: XCTestCase {
    func testCreateAndDeleteInAWatchedFolder() throws {
        let dir = NSTemporaryDirectory() + "inotify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inotify = try Inotify()
        let wd = try inotify.addWatch(dir, mask: [.create, .delete, .closeWrite])
        XCTAssertEqual(inotify.readEvents(), [], "nothing yet, and the read does not block")

        // Written in place (FileManager would write a temporary file and rename it).
        let fd = open(dir + "/a.png", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(write(fd, "x", 1), 1)
        close(fd)
        XCTAssertTrue(waitReadable(inotify.fd, timeout: 2))
        let made = inotify.readEvents()
        XCTAssertTrue(made.contains { $0.watch == wd && $0.name == "a.png" && $0.mask.contains(.create) })
        XCTAssertTrue(made.contains { $0.name == "a.png" && $0.mask.contains(.closeWrite) })

        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: dir + "/a.png")
        XCTAssertTrue(waitReadable(inotify.fd, timeout: 2))
        let later = inotify.readEvents()
        XCTAssertTrue(later.contains { $0.name == "sub" && $0.mask.isSuperset(of: [.create, .isDirectory]) })
        XCTAssertTrue(later.contains { $0.name == "a.png" && $0.mask.contains(.delete) })
    }

    func testWatchingAMissingFolderNamesIt() throws {
        let inotify = try Inotify()
        XCTAssertThrowsError(try inotify.addWatch("/nonexistent-folder-xyz", mask: .create)) { error in
            XCTAssertEqual(error as? SystemCallError,
                           SystemCallError(call: "inotify_add_watch", errno: ENOENT, subject: "/nonexistent-folder-xyz"))
        }
    }
}
