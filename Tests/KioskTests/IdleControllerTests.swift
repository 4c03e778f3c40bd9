import CarouselCore
import KioskConfig
import XCTest
@testable import Kiosk

final class IdleControllerTests: XCTestCase {
    private let policy = IdlePolicy(attractAfter: 30, attractInterval: 5, homeAfter: 60, homeItem: 2, blankAfter: 120)

    /// Runs the controller as the loop does: wakes only at `nextDeadline`, until `end`.
    private func run(_ idle: IdleController, until end: Double) -> [(Double, IdleAction)] {
        var out: [(Double, IdleAction)] = []
        var guardCount = 0
        while let t = idle.nextDeadline, t <= end {
            guardCount += 1
            if guardCount > 10_000 { XCTFail("deadline does not advance"); break }
            for a in idle.update(now: t) { out.append((t, a)) }
        }
        return out
    }

    func testFullTimelineWithOnlyNeededWakeUps() {
        let idle = IdleController(policy: policy, now: 0)
        XCTAssertEqual(idle.nextDeadline, 30)
        let seen = run(idle, until: 1000)
        let expected: [(Double, IdleAction)] = [
            (30, .attractBegan(autoscroll: nil)), (35, .advance), (40, .advance), (45, .advance), (50, .advance),
            (55, .advance), (60, .goHome(index: 2)), (65, .advance), (70, .advance), (75, .advance), (80, .advance),
            (85, .advance), (90, .advance), (95, .advance), (100, .advance), (105, .advance), (110, .advance),
            (115, .advance), (120, .attractEnded), (120, .blank),
        ]
        XCTAssertEqual(seen.map(\.0), expected.map(\.0))
        XCTAssertEqual(seen.map(\.1), expected.map(\.1))
        XCTAssertTrue(idle.isBlanked)
        XCTAssertNil(idle.nextDeadline, "blanked and home done: nothing left to wake up for")
    }

    func testFirstTouchAfterBlankingOnlyWakesAndItsGestureIsSwallowed() {
        let idle = IdleController(policy: policy, now: 0)
        _ = run(idle, until: 200)
        XCTAssertTrue(idle.isBlanked)
        let down = idle.handle(.touchDown(slot: 0, x: 10, y: 10), now: 300)
        XCTAssertEqual(down, IdleInputVerdict(deliver: false, actions: [.wake]))
        XCTAssertEqual(idle.phase, .active)
        // The rest of the waking tap (and a second finger joining it) never reaches the gestures.
        XCTAssertFalse(idle.handle(.touchMotion(slot: 0, x: 12, y: 10), now: 300.05).deliver)
        XCTAssertFalse(idle.handle(.touchDown(slot: 1, x: 50, y: 10), now: 300.06).deliver)
        XCTAssertFalse(idle.handle(.touchUp(slot: 0), now: 300.1).deliver)
        XCTAssertFalse(idle.handle(.touchUp(slot: 1), now: 300.11).deliver)
        // The next touch is a normal one.
        XCTAssertEqual(idle.handle(.touchDown(slot: 0, x: 10, y: 10), now: 301), IdleInputVerdict(deliver: true, actions: []))
        XCTAssertTrue(idle.handle(.touchUp(slot: 0), now: 301.1).deliver)
        XCTAssertEqual(idle.nextDeadline, 331.1, "the timeline restarts from the last input")
    }

    func testWakeByKeyAndByKnobAndByMouse() {
        let idle = IdleController(policy: IdlePolicy(blankAfter: 10), now: 0)
        XCTAssertEqual(idle.update(now: 10), [.blank])
        XCTAssertEqual(idle.handle(.keyDown(.enter), now: 11).actions, [.wake])
        XCTAssertFalse(idle.handle(.keyDown(.enter), now: 11.5).deliver, "auto-repeat of the waking key")
        XCTAssertFalse(idle.handle(.keyUp(.enter), now: 11.6).deliver)
        XCTAssertTrue(idle.handle(.keyDown(.enter), now: 12).deliver)

        XCTAssertEqual(idle.update(now: 22), [.blank])
        let knob = idle.handle(.rotary(delta: 1), now: 23)
        XCTAssertEqual(knob, IdleInputVerdict(deliver: false, actions: [.wake]))
        XCTAssertTrue(idle.handle(.rotary(delta: 1), now: 23.1).deliver, "a detent is a whole gesture")

        XCTAssertEqual(idle.update(now: 33.1), [.blank])
        XCTAssertFalse(idle.handle(.pointerButton(pressed: true), now: 40).deliver)
        XCTAssertFalse(idle.handle(.pointerMotion(x: 1, y: 1), now: 40.1).deliver)
        XCTAssertFalse(idle.handle(.pointerButton(pressed: false), now: 40.2).deliver)
        XCTAssertTrue(idle.handle(.pointerMotion(x: 2, y: 1), now: 40.3).deliver)
    }

    func testSwallowingEndsIfTheGestureNeverEnds() {
        let idle = IdleController(policy: IdlePolicy(blankAfter: 10), now: 0)
        _ = idle.update(now: 10)
        XCTAssertFalse(idle.handle(.touchDown(slot: 0, x: 1, y: 1), now: 11).deliver)
        // The device vanished without touch_up or cancel; much later a new touch on slot 0 works.
        XCTAssertTrue(idle.handle(.touchDown(slot: 0, x: 1, y: 1), now: 30).deliver)
    }

    func testInputEndsAttractAndRestartsTheTimeline() {
        let idle = IdleController(policy: policy, now: 0)
        XCTAssertEqual(idle.update(now: 30), [.attractBegan(autoscroll: nil)])
        XCTAssertEqual(idle.update(now: 35), [.advance])
        let verdict = idle.handle(.touchDown(slot: 0, x: 1, y: 1), now: 36)
        XCTAssertEqual(verdict, IdleInputVerdict(deliver: true, actions: [.attractEnded]))
        XCTAssertEqual(idle.phase, .active)
        XCTAssertEqual(idle.nextDeadline, 66)
        XCTAssertEqual(idle.update(now: 50), [], "nothing before the deadline")
    }

    func testAutoscrollAttract() {
        let idle = IdleController(policy: IdlePolicy(attractAfter: 5, autoscrollSpeed: 0.2, blankAfter: 20), now: 0)
        XCTAssertEqual(idle.update(now: 5), [.attractBegan(autoscroll: 0.2)])
        XCTAssertEqual(idle.nextDeadline, 20, "autoscroll needs no timer of its own")
        XCTAssertEqual(idle.update(now: 20), [.attractEnded, .blank])
        XCTAssertEqual(IdleAction.attractBegan(autoscroll: 0.2).eventFields.first?.1, "0.2000")
        let backwards = IdleController(policy: IdlePolicy(attractAfter: 5, autoscrollSpeed: -0.5), now: 0)
        XCTAssertEqual(backwards.update(now: 5), [.attractBegan(autoscroll: -0.5)])
        XCTAssertNil(backwards.nextDeadline)
        var settings = IdleSettings()
        settings.attractAfter = 7
        settings.attractAutoscroll = 0.3
        settings.homeItem = 2
        var expected = IdlePolicy(attractAfter: 7, autoscrollSpeed: 0.3, homeItem: 2)
        expected.warnBefore = 20  // the config's default (EN 301 549 11.2.2.1)
        XCTAssertEqual(IdlePolicy(settings), expected)
    }

    func testHomeBeforeAttractAndEverythingDisabled() {
        let idle = IdleController(policy: IdlePolicy(attractAfter: 20, homeAfter: 10, homeItem: 0), now: 0)
        XCTAssertEqual(idle.update(now: 10), [.goHome(index: 0)])
        XCTAssertEqual(idle.update(now: 15), [])
        XCTAssertEqual(idle.update(now: 20), [.attractBegan(autoscroll: nil)])
        XCTAssertEqual(idle.nextDeadline, 25)

        let off = IdleController(policy: IdlePolicy(), now: 0)
        XCTAssertNil(off.nextDeadline)
        XCTAssertEqual(off.update(now: 1e9), [])
    }

    func testLateUpdateDoesNotBurst() {
        let idle = IdleController(policy: IdlePolicy(attractAfter: 10, attractInterval: 1, blankAfter: 100), now: 0)
        XCTAssertEqual(idle.update(now: 10), [.attractBegan(autoscroll: nil)])
        XCTAssertEqual(idle.update(now: 50), [.advance], "one advance, not forty")
        XCTAssertEqual(idle.nextDeadline, 51)
        // Loop stalled past both attract and blank: go straight to blank.
        let late = IdleController(policy: IdlePolicy(attractAfter: 10, blankAfter: 20), now: 0)
        XCTAssertEqual(late.update(now: 500), [.blank])
    }

    func testSuspendDuringForegroundProgram() {
        let idle = IdleController(policy: policy, now: 0)
        _ = idle.update(now: 30)
        XCTAssertEqual(idle.suspend(now: 31), [.attractEnded])
        XCTAssertNil(idle.nextDeadline)
        XCTAssertEqual(idle.update(now: 500), [], "no blanking while a program owns the screen")
        idle.resume(now: 600)
        XCTAssertEqual(idle.nextDeadline, 630)
        _ = run(idle, until: 720)
        XCTAssertTrue(idle.isBlanked)
        XCTAssertEqual(idle.suspend(now: 800), [.wake], "a control-socket select while blanked wakes first")
    }

    func testReconfigureWakesAndUsesTheNewTimings() {
        let idle = IdleController(policy: IdlePolicy(blankAfter: 10), now: 0)
        XCTAssertEqual(idle.update(now: 10), [.blank])
        XCTAssertEqual(idle.reconfigure(IdlePolicy(attractAfter: 3), now: 11), [.wake])
        XCTAssertEqual(idle.nextDeadline, 14)
        XCTAssertEqual(idle.inputOccurred(now: 12), [])
        XCTAssertEqual(idle.nextDeadline, 15)
    }

    func testEventNames() {
        XCTAssertEqual([IdleAction.attractBegan(autoscroll: nil), .advance, .attractEnded, .goHome(index: 1), .blank, .wake].map(\.eventName),
                       ["attract_began", "attract_advanced", "attract_ended", "went_home", "screen_blanked", "screen_woke"])
        XCTAssertEqual(IdleAction.goHome(index: 4).eventFields.map { "\($0.0)=\($0.1)" }, ["index=4"])
    }
}
