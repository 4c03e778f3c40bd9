import Cards
import CarouselCore
import KioskConfig
import XCTest
@testable import Kiosk

/// Issue 30, "Time and operation": the idle timeout warns first ("Do you need more time?",
/// `[idle] warn_before`) and any input gives more time; attract mode can be paused and stopped
/// by the person (`pause` key); the look keys work. Run through `Simulator`, the program
/// `simulate` runs, on its virtual clock.
final class TimeAndOperationTests: XCTestCase {
    private func run(_ idle: IdleController, until end: Double) -> [(Double, IdleAction)] {
        var out: [(Double, IdleAction)] = []
        var steps = 0, now = -Double.infinity
        // As the loop does: a deadline already past is run at once (the clock never goes back).
        while let t = idle.nextDeadline, t <= end {
            steps += 1
            if steps > 10_000 { XCTFail("deadline does not advance"); break }
            now = max(now, t)
            for a in idle.update(now: now) { out.append((now, a)) }
        }
        return out
    }

    func testTheWarningComesWarnBeforeGoingHomeAndBeforeBlanking() {
        var policy = IdlePolicy(homeAfter: 60, blankAfter: 120)
        policy.warnBefore = 20
        let idle = IdleController(policy: policy, now: 0)
        let seen = run(idle, until: 1000)
        XCTAssertEqual(seen.map(\.0), [40, 60, 100, 120])
        XCTAssertEqual(seen.map(\.1), [.warn(until: 60), .goHome(index: 0), .warn(until: 120), .blank])
    }

    /// A kiosk whose config says nothing of `warn_before` warns 20 s before going home
    /// (11.2.2.1 by default); `warn_before = 0` turns it off.
    func testTheConfigsDefaultWarnsAndZeroTurnsItOff() {
        var settings = IdleSettings()
        settings.homeAfter = 60
        XCTAssertEqual(run(IdleController(policy: IdlePolicy(settings), now: 0), until: 100).map(\.1),
                       [.warn(until: 60), .goHome(index: 0)])
        settings.warnBefore = 0
        XCTAssertEqual(run(IdleController(policy: IdlePolicy(settings), now: 0), until: 100).map(\.1), [.goHome(index: 0)])
    }

    func testInputDuringTheWarningGivesMoreTime() {
        var policy = IdlePolicy(homeAfter: 60)
        policy.warnBefore = 20
        let idle = IdleController(policy: policy, now: 0)
        XCTAssertEqual(idle.update(now: 40), [.warn(until: 60)])
        XCTAssertTrue(idle.handle(.keyDown(.enter), now: 45).deliver)
        XCTAssertEqual(idle.nextDeadline, 85, "the timers start again: the next warning 40 s after the key")
        XCTAssertEqual(run(idle, until: 200).map(\.1), [.warn(until: 105), .goHome(index: 0)])
    }

    func testAWarningLongerThanTheWaitComesHalfWay() {
        var policy = IdlePolicy(homeAfter: 10)
        policy.warnBefore = 20
        let idle = IdleController(policy: policy, now: 0)
        XCTAssertEqual(run(idle, until: 100).map(\.0), [5, 10])
    }

    func testPauseStopsAttractModeUntilPressedAgainOrTheKioskGoesHome() {
        let idle = IdleController(policy: IdlePolicy(attractAfter: 30, attractInterval: 5, homeAfter: 300), now: 0)
        XCTAssertEqual(run(idle, until: 40).first?.1, .attractBegan(autoscroll: nil))
        XCTAssertEqual(idle.setAttractPaused(true, now: 41), [.attractEnded, .attractPaused])
        let paused = run(idle, until: 400)
        XCTAssertEqual(paused.map(\.1).prefix(2), [.goHome(index: 0), .attractResumed], "nothing moves by itself until home")
        XCTAssertEqual(paused.first?.0, 341)
        XCTAssertFalse(idle.isAttractPaused)
        XCTAssertEqual(paused.dropFirst(2).first?.1, .attractBegan(autoscroll: nil), "the next visitor sees attract mode")
        // Pressed twice: attract mode comes back on its own time.
        let again = IdleController(policy: IdlePolicy(attractAfter: 30), now: 0)
        XCTAssertEqual(again.setAttractPaused(true, now: 1), [.attractPaused])
        XCTAssertNil(again.nextDeadline)
        XCTAssertEqual(again.setAttractPaused(false, now: 2), [.attractResumed])
        XCTAssertEqual(again.nextDeadline, 32)
    }

    // MARK: Through simulate

    func plan(_ script: [(Double, InputEvent)], until: Double, configure: (inout KioskConfiguration) -> Void = { _ in }) -> SimulationPlan {
        var config = KioskConfiguration()
        config.carousel.type = .linear
        config.items = (0..<5).map { ItemConfig(id: "i\($0)", title: "Item \($0)") }
        configure(&config)
        var plan = SimulationPlan(config: config, width: 320, height: 200)
        plan.script = script.map { TimedInputEvent(time: $0.0, event: $0.1) }
        plan.until = until
        plan.wallClockStart = 0
        return plan
    }

    /// A key pressed at `t` and let go 0.1 s later.
    func press(_ key: KeyName, at t: Double) -> [(Double, InputEvent)] { [(t, .keyDown(key)), (t + 0.1, .keyUp(key))] }

    /// `plan`'s simulator and the log it writes.
    func simulator(_ plan: SimulationPlan) throws -> (Simulator, EventLog) {
        let log = try EventLog(path: nil)
        return (try Simulator(plan: plan, log: log), log)
    }

    func events(_ log: EventLog) -> [String] {
        log.lines.compactMap { line in line.range(of: "\"event\":\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) } }
    }

    func testTheWarningIsShownAndAKeyGivesMoreTimeInSimulate() throws {
        let p = plan(press(.right, at: 50), until: 130) { c in
            c.idle.homeAfter = 60
            c.idle.warnBefore = 20
        }
        let (sim, log) = try simulator(p)
        sim.advance(to: 45)
        XCTAssertEqual(sim.behavior.sceneCards.shownMessage, MessageCard.idleWarning(), "shown at 40 s")
        sim.advance(to: 51)
        XCTAssertNil(sim.behavior.sceneCards.shownMessage, "the key ended it")
        XCTAssertEqual(sim.session.position.index, 0, "and did nothing else")
        XCTAssertFalse(events(log).contains("went_home"), "more time: not home at 60 s")
        sim.advance(to: 95)
        XCTAssertEqual(sim.behavior.sceneCards.shownMessage, MessageCard.idleWarning(), "asked again at 90 s")
        sim.advance(to: 111)
        XCTAssertNil(sim.behavior.sceneCards.shownMessage, "gone when the kiosk went home")
        XCTAssertEqual(events(log).filter { $0 == "idle_warning" || $0 == "went_home" }, ["idle_warning", "idle_warning", "went_home"])
    }

    func testThePauseKeyStopsAttractModeAndTheCarouselsOwnAutoscroll() throws {
        let p = plan(press(.pause, at: 12), until: 60) { c in
            c.idle.attractAfter = 5
            c.idle.attractInterval = 2
            c.carousel.wrap = true
        }
        let (sim, log) = try simulator(p)
        sim.advance(to: 11.9)
        XCTAssertTrue(events(log).contains("attract_advanced"))
        sim.advance(to: 60)
        let after = events(log).drop { $0 != "attract_paused" }
        XCTAssertEqual(after.first, "attract_paused")
        XCTAssertFalse(after.contains("attract_advanced") || after.contains("attract_began"), "\(after)")
        let resting = sim.session.position
        XCTAssertEqual(resting.offset, Double(resting.index), accuracy: 1e-6, "settled on an item")

        // A carousel that turns by itself (`[carousel] autoscroll`) stops too.
        let auto = plan([(1, .keyDown(.pause))], until: 10) { c in c.carousel.autoscroll = 0.5; c.carousel.wrap = true }
        let sim2 = try Simulator(plan: auto, log: try EventLog(path: nil))
        sim2.advance(to: 3)
        let stopped = sim2.session.position.offset
        sim2.advance(to: 10)
        XCTAssertEqual(sim2.session.autoscroll, 0)
        XCTAssertEqual(sim2.session.position.offset, stopped, accuracy: 1e-6)
    }

    func testTheLookKeysSwitchLargeTextAndHighContrastAndHomeResetsThem() throws {
        let p = plan([(1, .keyDown(.highContrast)), (2, .keyDown(.largeText)), (3, .keyDown(.right))], until: 40) { c in
            c.idle.homeAfter = 30
        }
        let (sim, log) = try simulator(p)
        sim.advance(to: 2.5)
        XCTAssertEqual(sim.session.look, AccessibleLook(largeText: true, highContrast: true))
        sim.advance(to: 3.5)
        XCTAssertEqual(sim.session.position.index, 1, "other keys still move the carousel")
        sim.advance(to: 40)
        XCTAssertEqual(sim.session.look, AccessibleLook(), "the next person starts with the look the file sets")
        XCTAssertEqual(log.lines.filter { $0.contains("look_changed") }.count, 3)
    }

    /// A key that does something else (here `pause`) still answers the warning: it goes, and
    /// the timers start again. A paused autoscroll stays stopped across a reload of the file.
    func testAnyKeyAnswersTheWarningAndPauseSurvivesAReload() throws {
        let p = plan(press(.pause, at: 45), until: 70) { c in
            c.idle.homeAfter = 60
            c.idle.warnBefore = 20
            c.carousel.autoscroll = 0.5
            c.carousel.wrap = true
        }
        let (sim, log) = try simulator(p)
        sim.advance(to: 44)
        XCTAssertEqual(sim.behavior.sceneCards.shownMessage, MessageCard.idleWarning())
        sim.advance(to: 46)
        XCTAssertNil(sim.behavior.sceneCards.shownMessage, "pause answered it")
        XCTAssertEqual(sim.session.autoscroll, 0)
        sim.behavior.apply(.success(p.config), path: "kiosk.toml", reason: "test", now: 50, logger: .init(label: "test"))
        XCTAssertEqual(sim.session.autoscroll, 0, "still paused after the reload")
        sim.advance(to: 70)
        XCTAssertFalse(events(log).contains("went_home"), "the timers started again at 45 s")
    }
}
