import LinuxSystem
import Synchronization
import XCTest

/// `HeldClock`: the base clock less the time held (display-test's virtual time).
final class HeldClockTests: XCTestCase {
    /// A base clock the test sets by hand.
    private final class ManualBase: Sendable {
        let time = Mutex(100.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        @Sendable func now() -> Double { time.withLock { $0 } }
    }

    func testReadsTheBaseClockUntilSomethingIsHeld() {
        let base = ManualBase()
        let clock = HeldClock(base: base.now)
        XCTAssertEqual(clock.now(), 100)
        base.advance(2.5)
        XCTAssertEqual(clock.now(), 102.5)
        XCTAssertEqual(clock.heldSeconds, 0)
    }

    func testHeldSecondsAreLeftOutFromThenOn() {
        let base = ManualBase()
        let clock = HeldClock(base: base.now)
        base.advance(1)
        clock.hold(0.25)
        XCTAssertEqual(clock.now(), 100.75)
        base.advance(1)
        clock.hold(0.5)
        XCTAssertEqual(clock.now(), 101.25)
        XCTAssertEqual(clock.heldSeconds, 0.75)
    }

    /// A screenshot taken at an earlier reading: the clock resumes where it was then.
    func testRewindResumesAtAnEarlierReading() {
        let base = ManualBase()
        let clock = HeldClock(base: base.now)
        base.advance(3)
        let shotAt = clock.now()
        base.advance(4.2)
        clock.rewind(to: shotAt)
        XCTAssertEqual(clock.now(), shotAt, accuracy: 1e-9)
        XCTAssertEqual(clock.heldSeconds, 4.2, accuracy: 1e-9)
        base.advance(1)
        XCTAssertEqual(clock.now(), shotAt + 1, accuracy: 1e-9)
    }

    /// A reading not in the past holds nothing: the clock never runs ahead of its base.
    func testRewindToTheFutureHoldsNothing() {
        let base = ManualBase()
        let clock = HeldClock(base: base.now)
        clock.rewind(to: clock.now() + 5)
        XCTAssertEqual(clock.heldSeconds, 0)
        XCTAssertEqual(clock.now(), 100)
    }

    /// The reactor's time is the held clock's: what was held does not count there either.
    func testAReactorOnAHeldClockLeavesTheHeldTimeOut() throws {
        let base = ManualBase()
        let clock = HeldClock(base: base.now)
        let reactor = try Reactor(clock: clock.now)
        base.advance(2)
        XCTAssertEqual(reactor.now, 2)
        clock.hold(1.5)
        XCTAssertEqual(reactor.now, 0.5)
        base.advance(1)
        clock.rewind(to: reactor.start + 0.5)
        XCTAssertEqual(reactor.now, 0.5, accuracy: 1e-9)
    }
}
