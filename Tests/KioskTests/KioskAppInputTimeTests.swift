import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// The live loop delivers every input event at the kernel's time, not at the time it read it:
/// a swipe that a busy loop reads in one batch flings exactly as the same swipe read event by
/// event, and as `simulate` replays it from a script.
final class KioskAppInputTimeTests: XCTestCase {
    /// A fast swipe to the left: down, 8 motions 16 ms apart, up (loop seconds).
    private let swipe: [TimedInputEvent] = {
        var s = [TimedInputEvent(time: 0.050, event: .touchDown(slot: 0, x: 600, y: 240))]
        for k in 1...8 {
            s.append(TimedInputEvent(time: 0.050 + Double(k) * 0.016, event: .touchMotion(slot: 0, x: 600 - Double(k) * 24, y: 240)))
        }
        s.append(TimedInputEvent(time: 0.190, event: .touchUp(slot: 0)))
        return s
    }()

    private var folder: URL!
    private var configPath: String!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("inputtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        configPath = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [200, 150]\n"
        for i in 0..<40 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Where the carousel is at each of `probes` (loop seconds) after the app reads the swipe
    /// in `batches` (each a list of indices into the swipe), with the engine ticking at its rate.
    private func liveOffsets(batches: [[Int]], probes: [Double]) throws -> [Double] {
        let config = try ConfigLoader.load(path: configPath)
        let source = ScriptedInputSource()
        let app = try KioskApp(configPath: configPath, config: config, display: HeadlessDisplay(width: 800, height: 480),
                               inputs: [source], log: try EventLog(path: nil), logger: Logger(label: "test"))
        defer { source.close() }
        app.behavior.tick(now: 0)  // the engine's clock starts where the simulator's does
        // The kernel stamped the swipe in the loop's past: wait until the loop's clock passed it.
        while app.now < swipe.last!.time { usleep(5_000) }
        for batch in batches {
            source.queued = batch.map { TimedInputEvent(time: app.start + swipe[$0].time, event: swipe[$0].event) }
            app.readInput(source.fd)
        }
        let dt = 1 / config.carousel.tickHz
        var out: [Double] = []
        var step = 0
        for probe in probes {
            while Double(step) * dt <= probe + 1e-9 { app.behavior.tick(now: Double(step) * dt); step += 1 }
            out.append(app.session.engine.scrollOffset)
        }
        return out
    }

    private func simulatedOffsets(probes: [Double]) throws -> [Double] {
        let config = try ConfigLoader.load(path: configPath)
        return try probes.map { until in
            var plan = SimulationPlan(config: config, width: 800, height: 480)
            plan.script = swipe
            plan.until = until
            let sim = try Simulator(plan: plan, log: try EventLog(path: nil))
            try sim.run()
            return sim.session.engine.scrollOffset
        }
    }

    func testABatchedSwipeFlingsAsTheSameSwipeReadEventByEvent() throws {
        let probes = [0.2, 0.5, 1.0, 4.0]
        let oneByOne = try liveOffsets(batches: swipe.indices.map { [$0] }, probes: probes)
        let batched = try liveOffsets(batches: [Array(swipe.indices)], probes: probes)
        let simulated = try simulatedOffsets(probes: probes)
        XCTAssertGreaterThanOrEqual(oneByOne[3], 3, "the swipe flings several items (offsets \(oneByOne))")
        XCTAssertGreaterThan(oneByOne[2] - oneByOne[0], 0.5, "and is still gliding after the finger left")
        for (i, t) in probes.enumerated() {
            XCTAssertEqual(batched[i], oneByOne[i], accuracy: 1e-9, "at \(t) s: one read of the whole swipe = one read per event")
            XCTAssertEqual(simulated[i], oneByOne[i], accuracy: 1e-9, "at \(t) s: simulate replays what the live loop did")
        }
    }

    /// The kernel's time is kept, but never ahead of the loop and never behind the event before.
    func testKernelTimesAreClampedToTheLoopsPresentAndOrder() {
        var clock = InputClock(start: 100)
        XCTAssertEqual(clock.loopTime(ofKernelTime: 99, now: 1), 0, "queued before the loop started: its start")
        XCTAssertEqual(clock.loopTime(ofKernelTime: 100.25, now: 1), 0.25, accuracy: 1e-12)
        XCTAssertEqual(clock.loopTime(ofKernelTime: 100.20, now: 1), 0.25, accuracy: 1e-12, "never before the previous event")
        XCTAssertEqual(clock.loopTime(ofKernelTime: 105, now: 1), 1, "never after the loop's now")
        XCTAssertEqual(clock.loopTime(ofKernelTime: .nan, now: 2), 2, "no time: the time it was read")
    }
}
