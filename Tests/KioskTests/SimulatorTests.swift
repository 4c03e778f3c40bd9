import CarouselCore
import Foundation
import Input
import JSON
import KioskConfig
import XCTest
@testable import Kiosk

final class SimulatorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func config(items: Int = 8) -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(200, 150)
        c.items = (0..<items).map { i in
            var item = ItemConfig(id: "item\(i)", title: "Item \(i)")
            item.style.background = 0xFF00_0000 | UInt32(40 + i * 20) << 16 | 0x6080
            return item
        }
        return c
    }

    /// A left swipe of 300 px in 0.1 s, starting at 0.5 s.
    private let swipe = (0...5).map { k -> TimedInputEvent in
        let t = 0.5 + Double(k) * 0.02
        let x = 800 - Double(k) * 60
        return TimedInputEvent(time: t, event: k == 0 ? .touchDown(slot: 0, x: x, y: 240) : .touchMotion(slot: 0, x: x, y: 240))
    } + [TimedInputEvent(time: 0.62, event: .touchUp(slot: 0))]

    private func simulate(_ name: String) throws -> (events: [String], before: Data, after: Data) {
        var plan = SimulationPlan(config: config(), width: 640, height: 480)
        plan.script = swipe
        plan.until = 2.5
        let a = folder.appendingPathComponent("\(name)-a.png").path, b = folder.appendingPathComponent("\(name)-b.png").path
        plan.shots = [(0.4, a), (2.5, b)]
        let log = try EventLog(path: nil)
        try Simulator(plan: plan, log: log).run()
        return (log.lines, try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
    }

    func testSwipeMovesTheCarouselAndRecordsTheIndexChange() throws {
        let run = try simulate("swipe")
        let names = run.events.compactMap { JSONValue.parse($0)?.objectValue?["event"]?.stringValue }
        XCTAssertEqual(names.first, "drag_began")
        XCTAssertTrue(names.contains("drag_ended"))
        let last = run.events.last { $0.contains("current_index_changed") }
        let index = last.flatMap { JSONValue.parse($0)?.objectValue?["index"]?.numberValue }
        XCTAssertNotNil(index)
        XCTAssertGreaterThan(index ?? 0, 0, "a left swipe moves to a later item")
        XCTAssertNotEqual(run.before, run.after, "the frame after the swipe differs from the one before")
    }

    func testSimulationIsDeterministic() throws {
        let one = try simulate("one"), two = try simulate("two")
        XCTAssertEqual(one.events, two.events)
        XCTAssertEqual(one.after, two.after)
    }

    func testWithoutInputNothingHappens() throws {
        var plan = SimulationPlan(config: config(), width: 320, height: 240)
        plan.until = 1
        let log = try EventLog(path: nil)
        try Simulator(plan: plan, log: log).run()
        XCTAssertEqual(log.lines, [])
    }

    /// A shot after the end was silently never written (issue 27): the run is refused before
    /// anything runs.
    func testShotAfterTheEndIsRefusedBeforeRunning() throws {
        var plan = SimulationPlan(config: config(), width: 320, height: 240)
        plan.until = 1
        let late = folder.appendingPathComponent("late.png").path
        plan.shots = [(0.5, folder.appendingPathComponent("early.png").path), (2, late)]
        let log = try EventLog(path: nil)
        XCTAssertThrowsError(try Simulator(plan: plan, log: log).run()) { e in
            XCTAssertEqual("\(e)", "the shot at 2.0 s (\(late)) is after the end of the run (1.0 s)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("early.png").path), "nothing ran")
    }
}
