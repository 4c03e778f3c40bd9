import Glibc
import LinuxSystem
import XCTest

final class SignalFDTests: XCTestCase {
    /// The signal is blocked by `SignalFD` and arrives as data, not as a handler or a death.
    func testABlockedSignalIsDeliveredThroughTheDescriptor() throws {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let signals = try SignalFD(signals: [SIGUSR1])
        var now = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &now)
        XCTAssertEqual(sigismember(&now, SIGUSR1), 1, "blocked on this thread")
        XCTAssertEqual(signals.drain(), [])

        let epoll = try Epoll()
        try epoll.add(signals.fd)
        XCTAssertEqual(pthread_kill(pthread_self(), SIGUSR1), 0)
        XCTAssertEqual(try epoll.wait(timeout: 2_000).map(\.fd), [signals.fd])
        XCTAssertEqual(signals.drain(), [SIGUSR1])
        XCTAssertEqual(signals.drain(), [], "drained")
    }
}
