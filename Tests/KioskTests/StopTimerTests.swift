import LinuxSystem
import XCTest
@testable import Kiosk

/// `run --exit-after`: a loop that comes round late (a slow first frame, an emulated CPU) still
/// runs what was due before the end — a `--shot` at 0.2 s of a run that ends at 1 s — whatever
/// order the components were added in, and then stops.
final class StopTimerTests: XCTestCase {
    final class Due: ReactorSource {
        var nextDeadline: Double?
        var ranAt: Double?
        init(at time: Double) { nextDeadline = time }
        func deadlineReached(now: Double) { ranAt = now; nextDeadline = nil }
        func prepare(now: Double) {}
    }

    final class ManualClock: @unchecked Sendable { var time = 100.0 }

    func testWhatWasDueBeforeTheEndRunsWhenTheLoopIsLate() throws {
        let clock = ManualClock()
        let reactor = try Reactor(clock: { clock.time })
        var stops = 0
        let stop = StopTimer(after: 1) { stops += 1; reactor.stop() }
        let shot = Due(at: 0.2)
        reactor.add(stop)     // added first, as KioskApp adds it before run's shots
        reactor.add(shot)
        clock.time += 1.6     // the first pass comes after both times
        reactor.runDue(tolerance: 0.0005)
        XCTAssertEqual(shot.ranAt ?? 0, 1.6, accuracy: 1e-9, "the shot due at 0.2 s ran in the same pass")
        XCTAssertEqual(stops, 0, "the stop waits for the pass to end")
        XCTAssertNil(stop.nextDeadline)
        reactor.prepare()
        XCTAssertEqual(stops, 1, "then the loop stops")
    }
}
