import Glibc
import XCTest
@testable import LinuxSystem

final class FileDescriptorTests: XCTestCase {
    private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    func testClosedOnceByCloseAndNeverAgain() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        let fd = file.raw
        XCTAssertTrue(isOpen(fd))
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0, "close-on-exec is always set")
        XCTAssertEqual(file.close(), 0)
        XCTAssertFalse(isOpen(fd))
        XCTAssertEqual(file.raw, -1, "the number is forgotten")
        // The number may now belong to another file (the lowest free number is given again):
        // a second close must not touch it.
        let other = try FileDescriptor.open("/dev/null", O_RDONLY)
        XCTAssertEqual(file.close(), 0)
        XCTAssertTrue(isOpen(other.raw), "the other file is still open")
    }

    func testClosedWhenItGoes() throws {
        var file: FileDescriptor? = try FileDescriptor.open("/dev/null", O_RDONLY)
        let fd = file!.raw
        file = nil
        XCTAssertFalse(isOpen(fd))
    }

    func testAnOpenThatFailsNamesThePathAndKeepsTheErrno() {
        XCTAssertThrowsError(try FileDescriptor.open("/nonexistent/x", O_RDONLY)) { error in
            let e = error as? SystemCallError
            XCTAssertEqual(e?.errno, ENOENT)
            XCTAssertEqual(e?.description, "/nonexistent/x: open: No such file or directory")
        }
    }

    func testTheWrappersOwnTheirDescriptor() throws {
        var timer: TimerFD? = try TimerFD()
        var event: EventFD? = try EventFD()
        var epoll: Epoll? = try Epoll()
        let fds = [timer!.fd, event!.fd, epoll!.fd]
        XCTAssertTrue(fds.allSatisfy(isOpen))
        timer = nil; event = nil; epoll = nil
        XCTAssertFalse(fds.contains(where: isOpen))
    }
}
