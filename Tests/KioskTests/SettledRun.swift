import Display
import XCTest
@testable import Kiosk

/// What a live loop did once its start-up was over.
struct SettledRun {
    /// The loop's time of the first frame that showed every item's face, all faded in and still.
    var settled: Double
    /// The loop's times of the frames after that one.
    var framesAfter: [Double]
    /// Loop wake-ups after that frame (the wake-up that ends the run among them).
    var wakeupsAfter: Int
    /// The loop's time when the run ended: `window` after `settled`, or later when the host
    /// kept the loop from running on time (a starved or emulated process).
    var ended: Double
}

/// Runs `app`'s loop until `window` seconds after its first frame that shows every item's face
/// with nothing fading in or moving, or, given `framesAwaited`, until `grace` seconds after that
/// many frames have followed it (`window` then only caps a run whose frames do not come).
///
/// Start-up frames vary: card faces arrive from worker threads, late on a busy or emulated host.
/// So a test of what a still kiosk does watches it for a fixed time after its start-up, whenever
/// that comes, never from a fixed time after launch. `app`'s `exitAfter` only bounds a run whose
/// faces never all arrive (the test then fails naming that step). `display` must be `app`'s.
func runAfterStartUp(_ app: KioskApp, display: HeadlessDisplay, window: Double,
                     framesAwaited: Int? = nil, grace: Double = 0.5,
                     file: StaticString = #filePath, line: UInt = #line) throws -> SettledRun {
    let items = app.session.config.items.count
    let stop = try TickTimer()
    try app.reactor.watch(stop.fd) { [unowned app] in app.reactor.stop() }
    var settled: (time: Double, wakeups: Int)?
    var after: [Double] = []
    let shown = display.onFrameShown
    display.onFrameShown = { [unowned app] frame in
        shown?(frame)
        if settled != nil {
            after.append(app.now)
            if after.count == framesAwaited { stop.armOnce(after: grace) }
            return
        }
        // Faces are taken in on the loop's thread only, so the frame just drawn shows them all,
        // and nothing fades in or moves at its time.
        if (0..<items).allSatisfy(app.session.cards.isReady), !app.session.isMoving {
            settled = (app.now, app.loopWakeups)
            stop.armOnce(after: window)
        }
    }
    XCTAssertEqual(try app.run(), 0, file: file, line: line)
    let s = try XCTUnwrap(settled, "start-up: not every one of the \(items) faces was drawn before the run's cap (exitAfter)",
                          file: file, line: line)
    return SettledRun(settled: s.time, framesAfter: after, wakeupsAfter: app.loopWakeups - s.wakeups, ended: app.now)
}
