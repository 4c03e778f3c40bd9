import CarouselCore
import Foundation
import KioskConfig
import XCTest
@testable import Kiosk

/// `[[schedule]]` against a fake wall clock: weekday windows, midnight crossing, both
/// daylight-saving changes, NTP steps, the clock guard, `wake_for`, window items.
final class ScheduleTests: XCTestCase {
    let london = TimeZone(identifier: "Europe/London")!
    let utcZone = TimeZone(identifier: "UTC")!

    func local(_ s: String, _ zone: TimeZone? = nil) -> Double {
        guard let t = ManualWallClock.unixTime(parsingLocal: s, in: zone ?? london) else {
            XCTFail("\(s) is not a local time"); return 0
        }
        return t
    }
    func utc(_ s: String) -> Double { local(s, utcZone) }

    let weekdays = ScheduleWindow(days: [.mon, .tue, .wed, .thu, .fri], from: 9 * 60, to: 18 * 60)

    // MARK: The calendar

    func testWeekdayWindow() {
        let cal = ScheduleCalendar(windows: [weekdays], timeZone: london)
        // 2026-03-30 is a Monday, 2026-04-03 a Friday.
        XCTAssertNil(cal.openWindow(at: local("2026-03-30T08:59:59")))
        XCTAssertEqual(cal.openWindow(at: local("2026-03-30T09:00")), 0)
        XCTAssertEqual(cal.openWindow(at: local("2026-03-30T17:59:59")), 0)
        XCTAssertNil(cal.openWindow(at: local("2026-03-30T18:00")))
        XCTAssertNil(cal.openWindow(at: local("2026-04-04T12:00")), "Saturday")
        XCTAssertEqual(cal.nextChange(after: local("2026-03-30T08:00")), local("2026-03-30T09:00"))
        XCTAssertEqual(cal.nextChange(after: local("2026-03-30T09:00")), local("2026-03-30T18:00"))
        XCTAssertEqual(cal.nextChange(after: local("2026-04-03T18:00")), local("2026-04-06T09:00"), "Friday's close → Monday")
        XCTAssertNil(ScheduleCalendar(windows: [], timeZone: london).nextChange(after: 0))
        let always = ScheduleWindow(from: 0, to: 1440)
        XCTAssertNil(ScheduleCalendar(windows: [always], timeZone: london).nextChange(after: local("2026-03-30T08:00")), "open all week")
    }

    func testMidnightCrossingBelongsToTheDayItStarted() {
        let cal = ScheduleCalendar(windows: [ScheduleWindow(days: [.fri], from: 22 * 60, to: 2 * 60)], timeZone: london)
        XCTAssertNil(cal.openWindow(at: local("2026-04-03T21:59")))
        XCTAssertEqual(cal.openWindow(at: local("2026-04-03T22:00")), 0)
        XCTAssertEqual(cal.openWindow(at: local("2026-04-04T01:59")), 0, "Saturday 01:59 belongs to Friday's window")
        XCTAssertNil(cal.openWindow(at: local("2026-04-04T02:00")))
        XCTAssertNil(cal.openWindow(at: local("2026-04-03T01:00")), "Friday 01:00 would belong to Thursday")
        XCTAssertNil(cal.openWindow(at: local("2026-04-04T22:30")), "Saturday evening is not Friday")
        XCTAssertEqual(cal.nextChange(after: local("2026-04-03T21:00")), local("2026-04-03T22:00"))
        XCTAssertEqual(cal.nextChange(after: local("2026-04-03T23:00")), local("2026-04-04T02:00"))
        // Saturday night into Sunday: the week wraps.
        let sat = ScheduleCalendar(windows: [ScheduleWindow(days: [.sat], from: 23 * 60, to: 60)], timeZone: london)
        XCTAssertEqual(sat.openWindow(at: local("2026-04-05T00:30")), 0)
        XCTAssertNil(sat.openWindow(at: local("2026-04-06T00:30")))
    }

    /// London, 2026-03-29: 01:00 GMT becomes 02:00 BST.
    func testSpringForward() {
        let day = ScheduleCalendar(windows: [ScheduleWindow(days: [.sat, .sun], from: 9 * 60, to: 18 * 60)], timeZone: london)
        let sat18 = local("2026-03-28T18:00")
        XCTAssertEqual(day.nextChange(after: sat18), utc("2026-03-29T08:00"), "09:00 BST")
        XCTAssertEqual(day.nextChange(after: sat18)! - sat18, 14 * 3600, "the night is an hour short")
        // A window starting inside the skipped hour opens at the jump.
        let gap = ScheduleCalendar(windows: [ScheduleWindow(days: [.sun], from: 90, to: 180)], timeZone: london)
        XCTAssertEqual(gap.nextChange(after: utc("2026-03-29T00:59")), utc("2026-03-29T01:00"))
        XCTAssertEqual(gap.openWindow(at: utc("2026-03-29T01:00")), 0, "02:00 BST is inside 01:30–03:00")
        XCTAssertEqual(gap.nextChange(after: utc("2026-03-29T01:00")), utc("2026-03-29T02:00"), "03:00 BST")
    }

    /// London, 2026-10-25: 02:00 BST becomes 01:00 GMT.
    func testFallBack() {
        let day = ScheduleCalendar(windows: [ScheduleWindow(from: 9 * 60, to: 18 * 60)], timeZone: london)
        let sat18 = local("2026-10-24T18:00")
        XCTAssertEqual(sat18, utc("2026-10-24T17:00"))
        XCTAssertEqual(day.nextChange(after: sat18), utc("2026-10-25T09:00"), "09:00 GMT")
        XCTAssertEqual(day.nextChange(after: sat18)! - sat18, 16 * 3600, "the night is an hour long")
        XCTAssertEqual(day.nextChange(after: utc("2026-10-25T09:00")), utc("2026-10-25T18:00"))
        // A window in the repeated hour follows the wall clock: it is open in both 00:30–01:30s.
        let night = ScheduleCalendar(windows: [ScheduleWindow(days: [.sun], from: 30, to: 90)], timeZone: london)
        XCTAssertEqual(night.openWindow(at: utc("2026-10-24T23:45")), 0, "00:45 BST")
        XCTAssertNil(night.openWindow(at: utc("2026-10-25T00:45")), "01:45 BST")
        XCTAssertEqual(night.nextChange(after: utc("2026-10-25T00:45")), utc("2026-10-25T01:00"), "01:00 GMT: the hour again")
        XCTAssertEqual(night.nextChange(after: utc("2026-10-25T01:00")), utc("2026-10-25T01:30"))
    }

    func testLocalTimesOutsideTheZoneAreRefused() {
        XCTAssertNil(ManualWallClock.unixTime(parsingLocal: "2026-03-29T01:30:00", in: london), "inside the spring-forward gap")
        XCTAssertNil(ManualWallClock.unixTime(parsingLocal: "2026-02-30T10:00", in: london))
        XCTAssertNil(ManualWallClock.unixTime(parsingLocal: "yesterday", in: london))
        XCTAssertEqual(ScheduleCalendar(windows: [], timeZone: london).localDescription(utc("2026-03-29T01:00")), "2026-03-29T02:00:00+01:00")
    }

    // MARK: The controller

    func controller(_ clock: ManualWallClock, now: Double, outside: ScheduleDefaults.Outside = .blank,
                    windows: [ScheduleWindow]? = nil) -> ScheduleController {
        var d = ScheduleDefaults()
        d.outside = outside
        return ScheduleController(windows: windows ?? [weekdays], defaults: d, clock: clock, now: now)
    }

    func testNTPStepForwardIsSeenAtOnce() {
        let clock = ManualWallClock(unixTime: local("2026-03-30T08:00"), timeZone: london)
        let c = controller(clock, now: 1000)
        XCTAssertEqual(c.nextDeadline, 1000, "the first look is due at start")
        XCTAssertEqual(c.update(now: 1000), [.closed(after: nil)])
        XCTAssertEqual(c.nextDeadline, 1000 + 3600)
        XCTAssertEqual(c.idleOverride, .blank(wakeFor: 60))
        // NTP steps the clock two hours forward 10 s later (the loop hears it through the
        // cancel-on-set timerfd and looks again).
        clock.unixTime = local("2026-03-30T10:00:10")
        XCTAssertEqual(c.update(now: 1010), [.opened(index: 0)])
        XCTAssertNil(c.idleOverride)
        XCTAssertEqual(c.nextDeadline!, 1010 + 8 * 3600 - 10, accuracy: 1e-6, "18:00 from the new wall time")
    }

    func testNTPStepBackwardRecomputesFromTheWallClock() {
        let clock = ManualWallClock(unixTime: local("2026-03-30T10:00"), timeZone: london)
        let c = controller(clock, now: 0)
        XCTAssertEqual(c.update(now: 0), [.opened(index: 0)])
        XCTAssertEqual(c.nextDeadline, 8 * 3600)
        clock.unixTime = local("2026-03-30T08:30:05")  // stepped back 1.5 h, 5 s later
        XCTAssertEqual(c.update(now: 5), [.closed(after: 0)])
        XCTAssertEqual(c.nextDeadline!, 5 + 1795, accuracy: 1e-6)
        // Had the step gone unnoticed, the old deadline fires early: nothing changes, and the
        // next deadline comes from the wall clock again (no monotonic deltas accumulated).
        let d = ScheduleController(windows: [weekdays], defaults: ScheduleDefaults(),
                                   clock: ManualWallClock(unixTime: local("2026-03-30T10:00"), timeZone: london), now: 0)
        _ = d.update(now: 0)
        (d.clock as! ManualWallClock).unixTime = local("2026-03-30T16:00")  // at monotonic 8 h: the wall says 16:00
        XCTAssertEqual(d.update(now: 8 * 3600), [])
        XCTAssertEqual(d.nextDeadline!, 8 * 3600 + 2 * 3600, accuracy: 1e-6)
    }

    func testDaylightSavingDeadlineIsInRealSeconds() {
        let clock = ManualWallClock(unixTime: local("2026-10-24T18:00"), timeZone: london)
        let c = controller(clock, now: 50, windows: [ScheduleWindow(from: 9 * 60, to: 18 * 60)])
        XCTAssertEqual(c.update(now: 50), [.closed(after: nil)])
        XCTAssertEqual(c.nextDeadline, 50 + 16 * 3600, "Sunday 09:00 GMT is 16 real hours after Saturday 18:00 BST")
        clock.unixTime += 16 * 3600
        XCTAssertEqual(c.update(now: 50 + 16 * 3600), [.opened(index: 0)])
    }

    func testClockGuardUnsynchronisedDoesNotBlank() {
        let clock = ManualWallClock(unixTime: local("2026-03-30T20:00"), timeZone: london, isSynchronised: false)
        let c = controller(clock, now: 0)
        XCTAssertEqual(c.update(now: 0), [.closed(after: nil)])
        XCTAssertTrue(c.clockGuardHeld)
        XCTAssertNil(c.idleOverride, "unsynchronised: no blank")
        XCTAssertEqual(c.nextDeadline, 60, "the synchronisation is looked at each minute")
        XCTAssertEqual(c.eventLine(.closed(after: nil)).fields.last?.0, "clock_guard")
        // Synchronised (NTP slewed, no step): seen at the next look.
        clock.isSynchronised = true
        clock.unixTime += 60
        XCTAssertEqual(c.update(now: 60), [])
        XCTAssertFalse(c.clockGuardHeld)
        XCTAssertEqual(c.idleOverride, .blank(wakeFor: 60), "synchronised: blank")
    }

    func testClockGuardGraceElapsedBlanks() {
        let clock = ManualWallClock(unixTime: local("2026-03-30T20:00"), timeZone: london, isSynchronised: false)
        let c = controller(clock, now: 0)
        _ = c.update(now: 0)
        var t = 0.0
        while let due = c.nextDeadline, due < 300 { t = due; clock.unixTime += 60; _ = c.update(now: t); XCTAssertNil(c.idleOverride) }
        XCTAssertEqual(c.nextDeadline, 300, "the grace's end is a deadline of its own")
        XCTAssertEqual(t, 240)
        _ = c.update(now: 300)
        XCTAssertFalse(c.clockGuardHeld)
        XCTAssertEqual(c.idleOverride, .blank(wakeFor: 60), "grace elapsed: blank although unsynchronised")
        // The guard never holds back attract mode or "on".
        let a = controller(ManualWallClock(unixTime: local("2026-03-30T20:00"), timeZone: london, isSynchronised: false), now: 0, outside: .attract)
        _ = a.update(now: 0)
        XCTAssertEqual(a.idleOverride, .attract(after: 60))
        XCTAssertEqual(a.nextDeadline, 13 * 3600, "no guard polling for attract")
    }

    // MARK: The idle stages outside hours

    func testWakeForAfterATouchOutsideHours() {
        let idle = IdleController(policy: IdlePolicy(), now: 0)
        XCTAssertEqual(idle.setScheduleOverride(.blank(wakeFor: 60), now: 100), [.blank])
        XCTAssertNil(idle.nextDeadline)
        let down = idle.handle(.touchDown(slot: 0, x: 10, y: 10), now: 200)
        XCTAssertEqual(down, IdleInputVerdict(deliver: false, actions: [.wake]), "the waking touch only wakes")
        XCTAssertFalse(idle.handle(.touchUp(slot: 0), now: 200.1).deliver)
        XCTAssertEqual(idle.nextDeadline!, 260.1, accuracy: 1e-9, "wake_for from the last input")
        XCTAssertTrue(idle.handle(.touchDown(slot: 0, x: 10, y: 10), now: 230).deliver, "a second touch works")
        XCTAssertEqual(idle.nextDeadline, 290)
        XCTAssertEqual(idle.update(now: 290), [.blank])
        // Opening hours begin: the screen wakes without a touch, [idle] counts from then.
        XCTAssertEqual(idle.setScheduleOverride(nil, now: 400), [.wake])
        XCTAssertNil(idle.nextDeadline)
    }

    func testClosingLetsAPersonFinish() {
        let idle = IdleController(policy: IdlePolicy(blankAfter: 600), now: 0)
        _ = idle.handle(.touchDown(slot: 0, x: 1, y: 1), now: 90)
        XCTAssertEqual(idle.setScheduleOverride(.blank(wakeFor: 60), now: 100), [], "touched 10 s ago")
        XCTAssertEqual(idle.nextDeadline, 150)
        let attract = IdleController(policy: IdlePolicy(attractInterval: 5, blankAfter: 600), now: 0)
        XCTAssertEqual(attract.setScheduleOverride(.attract(after: 60), now: 100), [.attractBegan(autoscroll: nil)])
        XCTAssertEqual(attract.nextDeadline, 105, "steps; [idle] blank_after is off while attract mode is the schedule's")
    }

    // MARK: The whole behaviour, through the simulator

    func kioskConfig() -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(200, 150)
        c.items = ["a", "b", "breakfast-1", "breakfast-2"].map { ItemConfig(id: $0, title: $0) }
        c.schedule = [weekdays, ScheduleWindow(days: [.mon, .tue, .wed, .thu, .fri], from: 7 * 60, to: 9 * 60, items: ["breakfast-1", "breakfast-2"])]
        return c
    }

    func events(_ lines: [String], _ names: Set<String>) -> [String] {
        lines.filter { l in names.contains { l.contains("\"event\":\"\($0)\"") } }
    }

    func testSimulatedCloseBlankTouchWakesForWakeFor() throws {
        var plan = SimulationPlan(config: kioskConfig(), width: 320, height: 240)
        plan.config.carousel.tickHz = 20
        plan.timeZone = london
        plan.wallClockStart = local("2026-03-30T17:58:00")
        plan.until = 300
        plan.script = [TimedInputEvent(time: 200, event: .touchDown(slot: 0, x: 160, y: 120)),
                       TimedInputEvent(time: 200.1, event: .touchUp(slot: 0))]
        let log = try EventLog(path: nil)
        try Simulator(plan: plan, log: log).run()
        let seen = events(log.lines, ["schedule_opened", "schedule_closed", "screen_blanked", "screen_woke", "selected"])
        XCTAssertEqual(seen.count, 5, seen.joined(separator: "\n"))
        XCTAssertTrue(seen[0].hasPrefix("{\"t\":0.0000,\"event\":\"schedule_opened\",\"window\":1,\"from\":\"09:00\",\"to\":\"18:00\""), seen[0])
        XCTAssertTrue(seen[1].hasPrefix("{\"t\":120.0000,\"event\":\"schedule_closed\",\"window\":1,\"outside\":\"blank\",\"local_time\":\"2026-03-30T18:00:00+01:00\""), seen[1])
        XCTAssertTrue(seen[2].hasPrefix("{\"t\":120.0000,\"event\":\"screen_blanked\""), seen[2])
        XCTAssertTrue(seen[3].hasPrefix("{\"t\":200.0000,\"event\":\"screen_woke\""), seen[3])
        XCTAssertTrue(seen[4].contains("\"event\":\"screen_blanked\""), seen[4])
        XCTAssertTrue(seen[4].hasPrefix("{\"t\":260.1"), "blank again wake_for after the touch ended: \(seen[4])")
    }

    func testWindowItemsSwitchLikeAReload() throws {
        var plan = SimulationPlan(config: kioskConfig(), width: 320, height: 240)
        plan.config.carousel.tickHz = 20
        plan.config.scheduleDefaults.outside = .on
        plan.timeZone = london
        plan.wallClockStart = local("2026-03-30T08:59:50")
        plan.until = 20
        let log = try EventLog(path: nil)
        let sim = try Simulator(plan: plan, log: log)
        sim.advance(to: 1)
        XCTAssertEqual(sim.session.config.items.map(\.id), ["breakfast-1", "breakfast-2"])
        sim.session.apply(.scrollTo(index: 1, duration: 0), now: 1)
        sim.advance(to: 15)
        XCTAssertEqual(sim.session.config.items.map(\.id), ["a", "b", "breakfast-1", "breakfast-2"], "09:00: every item")
        XCTAssertEqual(sim.session.position.index, 3, "the current item stays: breakfast-2")
        XCTAssertEqual(sim.behavior.loadedConfig.items.count, 4)
        XCTAssertEqual(events(log.lines, ["schedule_opened"]).count, 2)
        XCTAssertTrue(events(log.lines, ["schedule_opened"])[0].contains("\"items\":2"))
    }
}
