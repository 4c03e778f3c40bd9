import CarouselCore
import Foundation
import JSON
import KioskConfig
import XCTest
@testable import Kiosk

/// Bounce keys (EN 301 549 5.8): a second strike of the same key within `[input] bounce_keys`
/// seconds is not accepted, with its release; other keys and later strikes are.
final class BounceKeysTests: XCTestCase {
    func testTheSameKeyWithinTheDelayIsIgnoredWithItsRelease() {
        var b = BounceKeys()
        XCTAssertTrue(b.admit(.keyDown(.enter), now: 1, delay: 0.5))
        XCTAssertTrue(b.admit(.keyUp(.enter), now: 1.05, delay: 0.5))
        XCTAssertFalse(b.admit(.keyDown(.enter), now: 1.3, delay: 0.5), "struck again 0.3 s later")
        XCTAssertFalse(b.admit(.keyUp(.enter), now: 1.35, delay: 0.5), "its release goes with it")
        XCTAssertTrue(b.admit(.keyDown(.enter), now: 1.6, delay: 0.5), "0.6 s after the accepted press")
        XCTAssertTrue(b.admit(.keyUp(.enter), now: 1.65, delay: 0.5))
    }

    func testADifferentKeyOrAnotherEventCountsAndResetsTheComparison() {
        var b = BounceKeys()
        XCTAssertTrue(b.admit(.keyDown(.right), now: 1, delay: 0.5))
        XCTAssertTrue(b.admit(.keyDown(.left), now: 1.1, delay: 0.5), "another key")
        XCTAssertTrue(b.admit(.keyDown(.right), now: 1.2, delay: 0.5), "not identical to the previous keystroke (left)")
        XCTAssertTrue(b.admit(.touchDown(slot: 0, x: 1, y: 1), now: 1.25, delay: 0.5))
        XCTAssertTrue(b.admit(.rotary(delta: 1), now: 1.26, delay: 0.5))
    }

    func testOffAcceptsEveryPress() {
        var b = BounceKeys()
        for i in 0..<5 { XCTAssertTrue(b.admit(.keyDown(.enter), now: Double(i) * 0.01, delay: 0)) }
    }

    /// Through the kiosk's input path (`simulate`'s, which is the live loop's `KioskContext`):
    /// a double strike of Enter selects once with `bounce_keys = 0.5`, twice without.
    func testADoubleStrikeSelectsOnceInTheKiosk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bounce-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func selections(bounce: String) throws -> Int {
            let path = folder.appendingPathComponent("config.toml").path
            try """
                [input]
                bounce_keys = \(bounce)
                [carousel]
                type = "linear"
                item_size = [120, 90]
                [[item]]
                id = "a"
                title = "A"
                action = { emit = "picked" }
                [[item]]
                id = "b"
                title = "B"
                """.write(toFile: path, atomically: true, encoding: .utf8)
            var plan = SimulationPlan(config: try ConfigLoader.load(path: path), width: 480, height: 320)
            plan.script = [TimedInputEvent(time: 1, event: .keyDown(.enter)), TimedInputEvent(time: 1.05, event: .keyUp(.enter)),
                           TimedInputEvent(time: 1.3, event: .keyDown(.enter)), TimedInputEvent(time: 1.35, event: .keyUp(.enter))]
            plan.until = 2
            let log = try EventLog(path: nil)
            try Simulator(plan: plan, log: log).run()
            return log.lines.compactMap { JSONValue.parse($0)?.objectValue }.filter { $0["event"]?.stringValue == "emitted" }.count
        }
        XCTAssertEqual(try selections(bounce: "0"), 2, "every press counts without bounce keys")
        XCTAssertEqual(try selections(bounce: "0.5"), 1, "the second strike 0.3 s later is a bounce")
    }
}
