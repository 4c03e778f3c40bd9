import LinuxSystem
import XCTest

final class TimerFDTests: XCTestCase {
    func testOneShotFiresOnceAfterItsDelay() throws {
        let timer = try TimerFD()
        let epoll = try Epoll()
        try epoll.add(timer.fd)
        let start = MonotonicClock.now()
        try timer.set(first: 0.05)
        XCTAssertEqual(try epoll.wait(timeout: 5_000).map(\.fd), [timer.fd])
        XCTAssertGreaterThanOrEqual(MonotonicClock.now() - start, 0.045)
        XCTAssertEqual(timer.acknowledge(), 1)
        XCTAssertEqual(try epoll.wait(timeout: 150), [], "a one-shot timer fires once")
        XCTAssertEqual(timer.acknowledge(), 0, "nothing to read: 0, not a block")
    }

    func testRepeatingCountsExpirations() throws {
        let timer = try TimerFD()
        try timer.set(first: 0.01, interval: 0.01)
        usleep(100_000)
        XCTAssertGreaterThanOrEqual(timer.acknowledge(), 5)
        try timer.disarm()
        _ = timer.acknowledge()
        usleep(50_000)
        XCTAssertEqual(timer.acknowledge(), 0, "disarmed")
    }

    func testATinyDelayStillArms() throws {
        let timer = try TimerFD()
        try timer.set(first: 1e-12)
        XCTAssertTrue(waitReadable(timer.fd, timeout: 1))
    }

    func testTheClockMovesForwardAndConverts() {
        let a = MonotonicClock.now(), b = monotonicNow()
        XCTAssertGreaterThanOrEqual(b, a)
        let ts = MonotonicClock.timespec(1.25)
        XCTAssertEqual(ts.tv_sec, 1)
        XCTAssertEqual(ts.tv_nsec, 250_000_000)
        XCTAssertEqual(MonotonicClock.seconds(ts), 1.25)
        XCTAssertEqual(MonotonicClock.timespec(-1).tv_sec, 0)
        XCTAssertGreaterThanOrEqual(MonotonicClock().elapsed, 0)
    }
}

final class ClockChangeTimerTests: XCTestCase {
    /// A `CLOCK_REALTIME` cancel-on-set timer arms, never expires by itself, and reads as "not
    /// set" while nobody sets the clock (setting it needs CAP_SYS_TIME: not done here).
    func testCancelOnSetTimerArmsAndStaysQuiet() throws {
        let timer = try TimerFD(realtime: true)
        try timer.watchClockChanges()
        let epoll = try Epoll()
        try epoll.add(timer.fd)
        XCTAssertEqual(try epoll.wait(timeout: 100), [])
        XCTAssertFalse(timer.clockWasSet())
        _ = systemClockSynchronised()  // readable without privileges; either answer is fine here
    }
}
