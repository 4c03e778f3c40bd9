import CarouselCore
import Display
import Foundation
import KioskConfig
import LinuxSystem
import Logging
import Raster
import XCTest
@testable import Cards
@testable import Kiosk

/// `[display] pixel_shift` in the session, `simulate` and the loop: the scene moves by one pixel
/// at each step and only then, the frame's damage is where quads were and are, a tap lands on
/// what is drawn, and the loop wakes once per step and no more.
final class PixelShiftSessionTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func config(shift: Int, interval: Double = 60) -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(160, 120)
        c.display.pixelShift = shift
        c.display.pixelShiftInterval = interval
        c.items = colouredItems(5)
        return c
    }

    /// The time at which `shift`'s offset is `target`.
    func time(of target: (x: Int, y: Int), in shift: PixelShift) throws -> Double {
        let k = try XCTUnwrap(shift.path.firstIndex { $0 == target })
        return Double(k) * shift.interval + 1
    }

    func testTheSceneMovesOnePixelAtAStepAndOnlyThenWithItsQuadsAsDamage() throws {
        let session = CarouselSession(config: config(shift: 4), width: 480, height: 320)
        let shift = PixelShiftState(session: session)
        XCTAssertTrue(shift.sceneOffset == (0, 0), "unshifted at the start")
        _ = session.renderFrame(now: 0)
        let before = Array(UnsafeBufferPointer(start: session.frame.pixels, count: 480 * 320))
        let oldQuads = session.quads()
        for t in [1.0, 30, 59.9] {
            _ = session.tick(now: t)
            XCTAssertFalse(session.needsFrame, "no frame between steps (t = \(t))")
        }
        XCTAssertEqual(shift.nextStep ?? 0, 60 + PixelShift.lateness, accuracy: 1e-9)
        _ = session.tick(now: 60 + PixelShift.lateness)
        XCTAssertTrue(session.needsFrame, "the step needs a frame")
        let o = shift.sceneOffset
        XCTAssertEqual(max(abs(o.x), abs(o.y)), 1, "one pixel: \(o)")
        let damage = session.renderFrame(now: 60.001)
        let newQuads = session.quads()
        XCTAssertEqual(newQuads.count, oldQuads.count)
        for (a, b) in zip(oldQuads, newQuads) {
            XCTAssertEqual(b.corners, a.corners.map { Point2($0.x + Double(o.x), $0.y + Double(o.y)) }, "every quad moved by the offset")
            for r in [a.bounds, b.bounds] {
                let clipped = r.intersection(PixelRect(x: 0, y: 0, width: 480, height: 320))
                guard clipped.width > 0, clipped.height > 0 else { continue }
                // Every pixel of the quad's bounds, old and new, is in some damaged rectangle.
                for y in clipped.y..<(clipped.y + clipped.height) {
                    for x in clipped.x..<(clipped.x + clipped.width)
                    where !damage.contains(where: { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }) {
                        return XCTFail("(\(x), \(y)) of \(clipped) is not in the damage \(damage)")
                    }
                }
            }
        }
        let area = damage.reduce(0) { $0 + $1.width * $1.height }
        XCTAssertLessThan(area, 480 * 320, "the union of old and new bounds, not the whole screen")
        print("pixel shift damage: \(damage.count) rects, \(area) px of \(480 * 320) (\(100 * area / (480 * 320)) %)")
        // The same picture, one pixel over: the centred card's inside.
        let after = session.frame
        for y in 110..<210 {
            for x in 170..<310 where after[x + o.x, y + o.y] != before[y * 480 + x] {
                return XCTFail("pixel (\(x), \(y)) did not move to (\(x + o.x), \(y + o.y))")
            }
        }
        XCTAssertTrue(session.renderFrame(now: 61).isEmpty, "nothing more until the next step")
        withExtendedLifetime(shift) {}  // the session's owner here: it holds the shift
    }

    /// A tap below the unshifted card but on the card drawn 4 px lower selects it; without the
    /// shift the same tap hits nothing.
    func testATapOnTheShiftedCardSelectsIt() throws {
        // The centred card spans y 100…220 on a 320 px screen; the tap is at 222.
        func taps(shift: Int) throws -> [CarouselEvent] {
            let session = CarouselSession(config: config(shift: shift), width: 480, height: 320)
            let state = PixelShiftState(session: session)
            let t = shift > 0 ? try time(of: (0, 4), in: state.pixelShift) : 10
            _ = session.tick(now: t)
            XCTAssertTrue(state.sceneOffset == (shift > 0 ? (0, 4) : (0, 0)))
            _ = session.renderFrame(now: t)
            _ = session.takeEvents()
            session.handle(.touchDown(slot: 0, x: 240, y: 222), now: t + 0.1)
            session.handle(.touchUp(slot: 0), now: t + 0.15)
            return withExtendedLifetime(state) { (session.takeEvents() + session.tick(now: t + 0.2)).map(\.event) }
        }
        XCTAssertFalse(try taps(shift: 0).contains(.selected(index: 0)), "unshifted: the tap is below the card")
        XCTAssertTrue(try taps(shift: 4).contains(.selected(index: 0)), "shifted: the tap is on the card drawn there")
    }

    /// A reload that turns the shift on takes the step due at once (one frame); off goes back
    /// to the centre.
    func testReloadTurnsTheShiftOnAndOff() throws {
        let session = CarouselSession(config: config(shift: 0), width: 480, height: 320)
        let shift = PixelShiftState(session: session)
        _ = session.renderFrame(now: 0)
        XCTAssertNil(shift.nextStep)
        session.reload(config(shift: 2, interval: 10), now: 35)
        XCTAssertTrue(shift.sceneOffset == PixelShift(range: 2, interval: 10).offset(at: 35))
        XCTAssertFalse(shift.sceneOffset == (0, 0))
        XCTAssertEqual(shift.nextStep ?? 0, 40 + PixelShift.lateness, accuracy: 1e-9)
        _ = session.renderFrame(now: 35)
        session.reload(config(shift: 0), now: 36)
        XCTAssertTrue(shift.sceneOffset == (0, 0))
        XCTAssertTrue(session.needsFrame)
    }

    /// `simulate` on its virtual clock: two shots a step apart show the same picture one pixel over.
    func testSimulateShowsTheShiftDeterministically() throws {
        var plan = SimulationPlan(config: config(shift: 4, interval: 1), width: 480, height: 320)
        plan.until = 1.5
        let a = folder.appendingPathComponent("a.png").path, b = folder.appendingPathComponent("b.png").path
        plan.shots = [(0.5, a), (1.5, b)]
        try Simulator(plan: plan, log: try EventLog(path: nil)).run()
        let images = try [a, b].map { path in
            try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path, limits: ImageLimits())
        }
        let expected = PixelShift(range: 4, interval: 1).offset(at: 1.5)
        var matches: [String] = []
        for dy in -1...1 {
            for dx in -1...1 {
                var same = true
                for y in 110..<210 where same {
                    for x in 170..<310 where images[1][x + dx, y + dy] != images[0][x, y] { same = false; break }
                }
                if same { matches.append("\(dx),\(dy)") }
            }
        }
        XCTAssertEqual(matches, ["\(expected.x),\(expected.y)"], "the second shot is the first moved by the step's pixel")
    }

    /// A config file for the live loop's tests: six items on a coverflow, no fades (start-up is
    /// over once every face is drawn), the shift given.
    private func writeLoopConfig(shift: Int, interval: Double) throws -> String {
        let path = folder.appendingPathComponent("config-\(shift)-\(interval).toml").path
        var text = "[display]\npixel_shift = \(shift)\npixel_shift_interval = \(interval)\n"
        text += "[cards]\nfade_duration = 0\n[carousel]\ntype = \"coverflow\"\nitem_size = [160, 120]\n"
        for i in 0..<6 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The live loop: once the start-up frames are drawn, a frame only at each step (one wake-up
    /// of the one-shot timer, plus the paced display's end of cap), and a still kiosk with a
    /// slow shift as quiet as without it. Each run is watched for `window` seconds after its
    /// start-up (`runAfterStartUp`), however long that takes on this host.
    func testTheLoopWakesOncePerStepAndDrawsOneFramePerStep() throws {
        let window = 3.2
        func run(shift: Int, interval: Double) throws -> (run: SettledRun, shift: PixelShift) {
            let path = try writeLoopConfig(shift: shift, interval: interval)
            let display = HeadlessDisplay(width: 480, height: 320, paced: true)
            let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: display, inputs: [],
                                   log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 60,
                                   notifier: nil)
            return (try runAfterStartUp(app, display: display, window: window), app.behavior.pixelShift.pixelShift)
        }
        let (off, _) = try run(shift: 0, interval: 600)
        let (slow, slowShift) = try run(shift: 4, interval: 600)
        let (fast, shift) = try run(shift: 4, interval: 1)
        func summary(_ r: SettledRun) -> String {
            String(format: "settled at %.3f s, then ", r.settled)
                + "\(r.framesAfter.count) frames at \(r.framesAfter.map { String(format: "%.3f", $0) }) and \(r.wakeupsAfter) wake-ups"
        }
        print("pixel shift loop, \(window) s after start-up: off: \(summary(off)); every 600 s: \(summary(slow)); every 1 s: \(summary(fast))")
        XCTAssertEqual(off.framesAfter.count, 0, "a still kiosk draws nothing after start-up")
        // The 600 s steps keep the wall clock's phase: a run that starts just before one of
        // them (at 08:40:00 UTC, say) sees that step in its window, and draws it once.
        let slowStepInWindow = slowShift.nextChange(after: slow.settled).map { $0 <= slow.ended } ?? false
        XCTAssertEqual(slow.framesAfter.count, slowStepInWindow ? 1 : 0,
                       "nor with a step due in minutes (one frame if a step fell in the window: \(slowStepInWindow))")
        XCTAssertLessThanOrEqual(slow.wakeupsAfter, off.wakeupsAfter + 1 + (slowStepInWindow ? 2 : 0),
                                 "and sleeps as long (but for the step's timer and the paced display's cap)")
        // Steps every 1 s at the wall clock's phase: step n is due at n - frac (+ lateness). A
        // frame belongs to the step whose period it is drawn in. The steps due after the settled
        // frame that still have a second to be drawn before the run ends (a slow host draws
        // late, not twice) get exactly one frame each.
        let frac: Double = shift.phase - shift.phase.rounded(.down)
        let first = Int(fast.settled.rounded(.down))
        let due = (first...(first + Int(window) + 2)).filter { n in
            let boundary = Double(n) - frac + PixelShift.lateness
            return boundary > fast.settled && boundary <= fast.settled + window - 1
        }
        XCTAssertFalse(due.isEmpty)
        let steps = fast.framesAfter.map { Int(($0 + frac).rounded(.down)) }
        // A loop kept from running (its stop came more than half a second late: a starved or
        // emulated process) may sleep through a step; it must still never draw one twice.
        let late = fast.ended - (fast.settled + window)
        for n in due {
            let frames = steps.filter { $0 == n }.count
            if late <= 0.5 {
                XCTAssertEqual(frames, 1, "one frame for step \(n) (frames in steps \(steps))")
            } else {
                XCTAssertLessThanOrEqual(frames, 1, "at most one frame for step \(n) (frames in steps \(steps); the loop ran \(late) s late)")
            }
        }
        XCTAssertEqual(Set(steps).count, steps.count, "no step drawn twice (frames in steps \(steps))")
        if late > 0.5 { print("pixel shift loop: the run ended \(String(format: "%.2f", late)) s late (a starved host): each step at most once") }
        XCTAssertLessThanOrEqual(fast.wakeupsAfter, off.wakeupsAfter + 2 * steps.count,
                                 "at most two wake-ups per step (the timer, the paced display's cap)")
    }

    /// A frame drawn so slowly that the next step's time passes while it is drawn (a busy
    /// host): that step is drawn at the loop's next pass, not an interval later. The settled
    /// frame's showing holds the loop's thread until just past the step — real time, as a slow
    /// frame takes it: the loop's timer, armed for the step before that frame, has then expired.
    /// (A clock made to jump instead, as this test did until stop 49, leaves that timer armed for
    /// the real time it was set for: under qemu-user the loop then slept until the step after.)
    /// The run waits for the frame that follows, up to half a second before the step after it,
    /// and half a second more for a second one that should not come.
    func testAStepWhoseTimePassesWhileAFrameIsDrawnIsDrawnAtOnce() throws {
        let interval = 5.0
        let path = try writeLoopConfig(shift: 4, interval: interval)
        let display = HeadlessDisplay(width: 480, height: 320, paced: true)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: display, inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 120,
                               notifier: nil, wallClock: { 1_000_000 })
        let shift = app.behavior.pixelShift
        var passed: (step: Double, at: Double)?
        var offsetsShown: [(x: Int, y: Int)] = []
        display.onFrameShown = { [unowned app] _ in
            if passed != nil { return offsetsShown.append(shift.sceneOffset) }
            // The settled frame (as runAfterStartUp judges it): drawn before the next step,
            // done after it.
            guard (0..<6).allSatisfy(app.session.cards.isReady), !app.session.isMoving else { return }
            let step = shift.pixelShift.nextChange(after: app.now)!
            while app.now < step + 0.002 { usleep(UInt32(max(1_000, (step + 0.002 - app.now) * 1e6))) }
            passed = (step, app.now)
        }
        // Watched for less than the interval after the step: the step after it is not due.
        let run = try runAfterStartUp(app, display: display, window: interval - 0.5, framesAwaited: 1)
        let (step, done) = try XCTUnwrap(passed)
        XCTAssertEqual(run.settled, done, accuracy: 0.001, "runAfterStartUp settled on the frame that outlasted the step")
        XCTAssertEqual(run.framesAfter.count, 1, "one frame for the step that passed while the settled frame was drawn, at \(run.framesAfter)")
        XCTAssertTrue(offsetsShown.first.map { $0 == shift.pixelShift.offset(at: step) } ?? false,
                      "it shows that step's offset: \(offsetsShown) for \(shift.pixelShift.offset(at: step))")
        XCTAssertLessThan(run.framesAfter.first ?? .infinity, step + interval,
                          "drawn at the next pass, not at the step after (\(run.framesAfter))")
    }
}
