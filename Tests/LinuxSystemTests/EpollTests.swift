import Foundation
import Glibc
import LinuxSystem
import XCTest

final class EpollTests: XCTestCase {
    func testAnEventFDSignalWakesTheWait() throws {
        let epoll = try Epoll()
        let wake = try EventFD()
        try epoll.add(wake.fd)
        XCTAssertEqual(try epoll.wait(timeout: 0), [], "nothing signalled yet")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { wake.signal() }
        let events = try epoll.wait(timeout: 5_000)
        XCTAssertEqual(events.map(\.fd), [wake.fd])
        XCTAssertTrue(events[0].events.contains(.readable))
        XCTAssertEqual(wake.reset(), 1)
        XCTAssertEqual(try epoll.wait(timeout: 0), [], "reset makes it quiet again (level-triggered)")
    }

    func testModifyAndRemove() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let epoll = try Epoll()
        try epoll.add(fds[1], events: .readable)
        XCTAssertEqual(try epoll.wait(timeout: 0), [], "an empty pipe's write end is not readable")
        try epoll.modify(fds[1], events: .writable)
        XCTAssertEqual(try epoll.wait(timeout: 0).first?.events.contains(.writable), true)
        epoll.remove(fds[1])
        XCTAssertEqual(try epoll.wait(timeout: 0), [])
    }

    func testAddingTwiceIsAnErrorNamingTheCall() throws {
        let epoll = try Epoll()
        let e = try EventFD()
        try epoll.add(e.fd)
        XCTAssertThrowsError(try epoll.add(e.fd)) { error in
            let s = error as? SystemCallError
            XCTAssertEqual(s?.errno, EEXIST)
            XCTAssertTrue(s?.call.hasPrefix("epoll_ctl") == true)
        }
    }

    func testTheEpollDescriptorIsItselfPollable() throws {
        let inner = try Epoll(), outer = try Epoll()
        let e = try EventFD()
        try inner.add(e.fd)
        try outer.add(inner.fd)
        e.signal()
        XCTAssertEqual(try outer.wait(timeout: 1_000).map(\.fd), [inner.fd])
        XCTAssertTrue(waitReadable(inner.fd, timeout: 0))
    }
}
