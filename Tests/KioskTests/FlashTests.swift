import Cards
import CarouselCore
import KioskConfig
import Raster
import TestSupport
import XCTest
@testable import Kiosk

/// EN 301 549 11.2.3.1 / WCAG 2.3.1: nothing the kiosk does by itself flashes more than three
/// times in any second. Each transition is run through `Simulator` with the worst content for
/// it — cards as large as the screen, alternately black and white — at the fastest setting the
/// configuration allows, and every frame (60 a second) is measured (`FlashCounter`). The
/// counter itself is checked to find flashes where there are some.
final class FlashTests: XCTestCase {
    var scratch: ScratchFolder!
    override func setUpWithError() throws { scratch = try ScratchFolder("flash") }
    override func tearDown() { scratch.remove() }

    /// Black and white pictures, alternately, on cards the size of the screen.
    func stripes(_ configure: (inout KioskConfiguration) -> Void) throws -> KioskConfiguration {
        let white = try scratch.write("white.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="white"/></svg>"#)
        let black = try scratch.write("black.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="black"/></svg>"#)
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(240, 160)
        c.carousel.wrap = true
        c.theme.showTitle = false
        c.theme.showPageIndicator = false
        c.items = (0..<8).map { i in
            var item = ItemConfig(id: "i\(i)", title: "")
            item.image = i % 2 == 0 ? white : black
            item.style.cornerRadius = 0
            return item
        }
        configure(&c)
        return c
    }

    /// The most flashes in any second of `seconds` of simulate with `script`, measured at 60 Hz.
    func flashes(_ config: KioskConfiguration, seconds: Double, script: [(Double, InputEvent)] = [],
                 during: (Simulator, Double) -> Void = { _, _ in }) throws -> FlashCounter {
        var plan = SimulationPlan(config: config, width: 240, height: 160)
        plan.script = script.map { TimedInputEvent(time: $0.0, event: $0.1) }
        plan.until = seconds
        plan.wallClockStart = 0
        let sim = try Simulator(plan: plan, log: try EventLog(path: nil))
        var counter = FlashCounter()
        let black = Canvas(width: 240, height: 160)
        black.fill(0xFF00_0000)
        for n in 0...Int(seconds * 60) {
            let t = Double(n) / 60
            sim.advance(to: t)
            during(sim, t)
            if sim.behavior.blanked {
                counter.add(black, at: t)
            } else {
                _ = sim.session.renderFrame(full: true, now: t)
                counter.add(sim.session.frame, at: t)
            }
        }
        return counter
    }

    func testTheCounterFindsFlashesWhereThereAreSome() throws {
        // Four steps a second between black and white cards: two flashes a second...
        var counter = FlashCounter()
        let white = Canvas(width: 40, height: 30), black = Canvas(width: 40, height: 30)
        white.fill(0xFFFF_FFFF)
        black.fill(0xFF00_0000)
        for n in 0..<240 { counter.add((n / 15) % 2 == 0 ? white : black, at: Double(n) / 60) }
        XCTAssertEqual(counter.maxFlashesPerSecond, 2)
        // ...and ten steps a second: five.
        var fast = FlashCounter()
        for n in 0..<240 { fast.add((n / 6) % 2 == 0 ? white : black, at: Double(n) / 60) }
        XCTAssertEqual(fast.maxFlashesPerSecond, 5)
    }

    func testAttractStepsAtTheShortestIntervalFlashAtMostThreeTimesASecond() throws {
        let config = try stripes { c in
            c.idle.attractAfter = 0.5
            c.idle.attractInterval = FlashLimits.shortestAttractInterval
        }
        let counter = try flashes(config, seconds: 6)
        print("attract steps every \(FlashLimits.shortestAttractInterval) s: \(counter.maxFlashesPerSecond) flashes in the worst second")
        XCTAssertGreaterThan(counter.transitions, 4, "the carousel stepped")
        XCTAssertLessThanOrEqual(counter.maxFlashesPerSecond, 3)
    }

    func testAutoscrollAtTheFastestSpeedFlashesAtMostThreeTimesASecond() throws {
        for configure: (inout KioskConfiguration) -> Void in [
            { $0.idle.attractAfter = 0.5; $0.idle.attractAutoscroll = FlashLimits.fastestAutoscroll },
            { $0.carousel.autoscroll = -FlashLimits.fastestAutoscroll },
        ] {
            let counter = try flashes(try stripes(configure), seconds: 5)
            print("autoscroll at \(FlashLimits.fastestAutoscroll) items/s: \(counter.maxFlashesPerSecond) flashes in the worst second")
            XCTAssertGreaterThan(counter.transitions, 4, "the carousel turned")
            XCTAssertLessThanOrEqual(counter.maxFlashesPerSecond, 3)
        }
        // The bound matters: the old largest speed (100) and even 10 items/s flash far more.
        let fast = try flashes(try stripes { $0.carousel.autoscroll = 10 }, seconds: 3)
        print("autoscroll at 10 items/s: \(fast.maxFlashesPerSecond) flashes in the worst second")
        XCTAssertGreaterThan(fast.maxFlashesPerSecond, 3)
    }

    /// Blanking and waking: a person tapping as fast as they like while the screen blanks after
    /// one second of quiet: at most one blank a second.
    func testBlankingAndWakingFlashAtMostThreeTimesASecond() throws {
        let config = try stripes { c in c.idle.blankAfter = 1 }
        var taps: [(Double, InputEvent)] = []
        for k in 0..<12 {
            let t = 1.05 + Double(k) * 0.5
            taps += [(t, .touchDown(slot: 0, x: 10, y: 10)), (t + 0.05, .touchUp(slot: 0))]
        }
        let counter = try flashes(config, seconds: 8, script: taps)
        print("blanking and waking: \(counter.maxFlashesPerSecond) flashes in the worst second")
        XCTAssertGreaterThan(counter.transitions, 2, "the screen blanked and woke")
        XCTAssertLessThanOrEqual(counter.maxFlashesPerSecond, 3)
    }

    /// The idle warning coming and going (a key gives more time each time it shows).
    func testTheIdleWarningFlashesAtMostThreeTimesASecond() throws {
        let config = try stripes { c in
            c.idle.homeAfter = 1
            c.idle.warnBefore = 0.5
        }
        var keys: [(Double, InputEvent)] = []
        for k in 0..<10 { keys += [(0.6 + Double(k) * 0.55, .keyDown(.escape)), (0.65 + Double(k) * 0.55, .keyUp(.escape))] }
        let counter = try flashes(config, seconds: 6, script: keys)
        print("idle warning: \(counter.maxFlashesPerSecond) flashes in the worst second")
        XCTAssertGreaterThan(counter.transitions, 2, "the warning came and went")
        XCTAssertLessThanOrEqual(counter.maxFlashesPerSecond, 3)
    }
}
