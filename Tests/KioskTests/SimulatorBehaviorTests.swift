import CarouselCore
import Foundation
import Input
import JSON
import KioskConfig
import XCTest
@testable import Kiosk

/// `simulate` runs the kiosk's behaviour, not only the carousel: idle stages, actions, reloads.
final class SimulatorBehaviorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("simb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static let items = (0..<6).map { i in
        """
        [[item]]
        id = "i\(i)"
        title = "Item \(i)"
        action = { emit = "picked-\(i)" }

        """
    }.joined()

    private func run(config: String, script: [TimedInputEvent] = [], until: Double,
                     reloads: [(Double, String)] = [], shots: [(Double, String)] = []) throws -> [[String: JSONValue]] {
        let path = try write("config.toml", config)
        var plan = SimulationPlan(config: try ConfigLoader.load(path: path), width: 480, height: 320)
        plan.script = script
        plan.until = until
        plan.reloads = reloads
        plan.shots = shots
        let log = try EventLog(path: nil)
        try Simulator(plan: plan, log: log).run()
        return log.lines.compactMap { JSONValue.parse($0)?.objectValue }
    }

    private func names(_ events: [[String: JSONValue]]) -> [String] { events.compactMap { $0["event"]?.stringValue } }
    private func time(_ e: [String: JSONValue]) -> Double { e["t"]?.numberValue ?? -1 }

    func testIdleGoesAttractThenHomeThenBlankAndTheFirstTouchOnlyWakes() throws {
        let config = """
            [carousel]
            type = "linear"
            item_size = [120, 90]
            [idle]
            attract_after = 2
            attract_interval = 1
            home_after = 4.5
            home_item = 1
            blank_after = 7
            """ + "\n" + Self.items
        let tap: [TimedInputEvent] = [
            .init(time: 8, event: .touchDown(slot: 0, x: 240, y: 160)),
            .init(time: 8.05, event: .touchUp(slot: 0)),
        ]
        let black = folder.appendingPathComponent("black.png").path
        let awake = folder.appendingPathComponent("awake.png").path
        let events = try run(config: config, script: tap, until: 9, shots: [(7.5, black), (8.5, awake)])
        let n = names(events)
        let began = try XCTUnwrap(events.first { $0["event"]?.stringValue == "attract_began" })
        XCTAssertEqual(time(began), 2, accuracy: 0.01)
        XCTAssertGreaterThanOrEqual(n.filter { $0 == "attract_advanced" }.count, 2)
        let home = try XCTUnwrap(events.first { $0["event"]?.stringValue == "went_home" })
        XCTAssertEqual(time(home), 4.5, accuracy: 0.01)
        XCTAssertEqual(home["index"]?.numberValue, 1)
        let blank = try XCTUnwrap(events.first { $0["event"]?.stringValue == "screen_blanked" })
        XCTAssertEqual(time(blank), 7, accuracy: 0.01)
        let woke = try XCTUnwrap(events.first { $0["event"]?.stringValue == "screen_woke" })
        XCTAssertEqual(time(woke), 8, accuracy: 0.01)
        XCTAssertFalse(n.contains("selected"), "the touch that wakes the screen must not select")
        XCTAssertLessThan(n.firstIndex(of: "attract_ended") ?? .max, n.firstIndex(of: "screen_blanked") ?? -1)
        let blackBytes = try Data(contentsOf: URL(fileURLWithPath: black))
        let awakeBytes = try Data(contentsOf: URL(fileURLWithPath: awake))
        XCTAssertNotEqual(blackBytes, awakeBytes, "the blanked screen differs from the woken one")
    }

    func testSelectingRunsTheItemsActionAndReportsPrograms() throws {
        let config = """
            [carousel]
            type = "linear"
            item_size = [120, 90]
            """ + "\n" + Self.items + "\n" + """
            [[item]]
            id = "player"
            title = "Player"
            action = { exec = ["/usr/bin/true", "--flag"], mode = "background" }
            """
        let keys: [TimedInputEvent] = [
            .init(time: 0.1, event: .keyDown(.enter)), .init(time: 0.15, event: .keyUp(.enter)),
            .init(time: 0.5, event: .keyDown(.home)),
            .init(time: 1.0, event: .touchDown(slot: 0, x: 240, y: 160)),
            .init(time: 1.05, event: .touchUp(slot: 0)),
        ]
        // Step to the last item (6) with seven "right" presses after the first selection.
        let steps = (0..<6).flatMap { k -> [TimedInputEvent] in
            [.init(time: 2 + Double(k) * 0.6, event: .keyDown(.right)), .init(time: 2.05 + Double(k) * 0.6, event: .keyUp(.right))]
        }
        let select: [TimedInputEvent] = [.init(time: 6.5, event: .keyDown(.enter)), .init(time: 6.55, event: .keyUp(.enter))]
        let events = try run(config: config, script: keys + steps + select, until: 7)
        let selected = events.filter { $0["event"]?.stringValue == "selected" }
        XCTAssertEqual(selected.first?["id"]?.stringValue, "i0")
        let emitted = events.filter { $0["event"]?.stringValue == "emitted" }
        XCTAssertEqual(emitted.first?["value"]?.stringValue, "picked-0")
        XCTAssertEqual(emitted.count, selected.filter { $0["id"]?.stringValue != "player" }.count)
        let skipped = try XCTUnwrap(events.first { $0["event"]?.stringValue == "action_skipped" })
        XCTAssertEqual(skipped["id"]?.stringValue, "player")
        XCTAssertEqual(skipped["mode"]?.stringValue, "background")
    }

    func testReloadAppliesAGoodFileAndKeepsTheRunningOneOnABadFile() throws {
        let config = """
            [carousel]
            type = "linear"
            item_size = [120, 90]
            """ + "\n" + Self.items
        let bigger = try write("bigger.toml", config + "\n" + """
            [[item]]
            id = "extra"
            title = "Extra"
            """)
        let broken = try write("broken.toml", config + "\n[[item]]\nid = \"x\"\ntitel = \"typo\"\n")
        let keys: [TimedInputEvent] = [.init(time: 1.5, event: .keyDown(.left))]
        let empty = try write("empty.toml", "")
        let events = try run(config: config, script: keys, until: 2.5, reloads: [(0.5, bigger), (1.0, broken), (1.2, empty)])
        let reloads = events.filter { $0["event"]?.stringValue == "reloaded" }
        XCTAssertEqual(reloads.map { $0["ok"] }, [.bool(true), .bool(false), .bool(false)],
                       "a good file applies; a bad one and an empty one (half-written) are refused")
        // The problems as check-config prints them: FILE:LINE:COLUMN: message.
        func strings(_ v: JSONValue?) -> [String] {
            if case .array(let a)? = v { return a.compactMap(\.stringValue) }
            return []
        }
        let problems = strings(reloads[1]["problems"])
        XCTAssertEqual(problems.count, Int(reloads[1]["problem_count"]?.numberValue ?? -1))
        XCTAssertTrue(problems.contains { $0.hasPrefix(broken + ":") && $0.contains("titel") }, "\(reloads[1])")
        XCTAssertEqual(strings(reloads[2]["problems"]), [empty + ":0:0: has no items"])
        // Still the 7-item configuration: "left" from item 0 wraps nowhere on a linear strip,
        // so the carousel stays put and nothing crashes; the index stays valid.
        let changes = events.filter { $0["event"]?.stringValue == "current_index_changed" }
        XCTAssertTrue(changes.allSatisfy { ($0["index"]?.numberValue ?? -1) < 7 })
    }
}
