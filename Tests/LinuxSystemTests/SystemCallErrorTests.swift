import Glibc
import LinuxSystem
import XCTest

final class SystemCallErrorTests: XCTestCase {
    func testDescriptionIsCallAndStrerror() {
        let e = SystemCallError(call: "epoll_create1", errno: EMFILE)
        XCTAssertEqual(e.description, "epoll_create1: \(String(cString: strerror(EMFILE)))")
        XCTAssertEqual(e.call, "epoll_create1")
        XCTAssertEqual(e.errno, EMFILE)
    }

    func testASubjectComesFirst() {
        let e = SystemCallError(call: "bind", errno: EACCES, subject: "/run/kiosk/control.sock")
        XCTAssertEqual(e.description, "/run/kiosk/control.sock: bind: \(String(cString: strerror(EACCES)))")
    }

    func testTheDefaultCodeIsTheCurrentErrno() {
        errno = ENOENT
        XCTAssertEqual(SystemCallError(call: "open").errno, ENOENT)
    }

    func testCheckThrowsTheCallsErrno() {
        XCTAssertThrowsError(try SystemCall.check("close", subject: "fd -1") { Glibc.close(-1) }) { error in
            XCTAssertEqual(error as? SystemCallError, SystemCallError(call: "close", errno: EBADF, subject: "fd -1"))
        }
        XCTAssertEqual(try SystemCall.check("getpid") { getpid() }, getpid())
    }
}
