import Foundation
import Glibc
import LinuxSystem
import XCTest

final class EINTRPolicyTests: XCTestCase {
    func testEINTRIsRetriedUntilTheCallGivesAnAnswer() {
        var calls = 0
        let r = retryingOnEINTR { () -> Int32 in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }
        XCTAssertEqual(r, 7)
        XCTAssertEqual(calls, 3)
    }

    func testOtherErrorsAreReturnedAtOnce() {
        var calls = 0
        let r = retryingOnEINTR { () -> Int in
            calls += 1
            errno = EAGAIN
            return -1
        }
        XCTAssertEqual(r, -1)
        XCTAssertEqual(errno, EAGAIN)
        XCTAssertEqual(calls, 1)
    }

    func testCheckRetriesEINTRThenThrowsTheRealError() {
        var calls = 0
        XCTAssertThrowsError(try SystemCall.check("read") { () -> Int in
            calls += 1
            errno = calls == 1 ? EINTR : EIO
            return -1
        }) { error in
            XCTAssertEqual((error as? SystemCallError)?.errno, EIO)
        }
        XCTAssertEqual(calls, 2)
    }

    /// A real interruption: a signal with a handler installed without SA_RESTART interrupts a
    /// blocking `epoll_wait`; `Epoll.wait` reports nothing ready instead of an error (the caller
    /// recomputes its timeout).
    func testAnInterruptedEpollWaitReturnsNoEvents() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var old = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &action, &old), 0)
        defer { sigaction(SIGUSR2, &old, nil) }
        var unblock = SignalFD.mask([SIGUSR2])
        var previousMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

        let epoll = try Epoll()
        let me = pthread_self()
        let start = MonotonicClock.now()
        let killer = Thread { usleep(100_000); pthread_kill(me, SIGUSR2) }
        killer.start()
        let events = try epoll.wait(timeout: 5_000)
        XCTAssertEqual(events, [])
        XCTAssertLessThan(MonotonicClock.now() - start, 4, "the wait ended at the signal, not at its timeout")
    }
}
