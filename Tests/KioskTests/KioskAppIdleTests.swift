import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// A still carousel must sleep: the loop wakes only for what it has to do (cards arriving and
/// fading in, the first frames), never in a spin. A spinning loop wakes tens of thousands of
/// times a second; a still one a few dozen times in all.
final class KioskAppIdleTests: XCTestCase {
    func testStillCarouselSleepsInTheLoop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"coverflow\"\nitem_size = [160, 120]\n[idle]\nattract_after = 600\nhome_after = 900\n"
        for i in 0..<8 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let display = HeadlessDisplay(width: 480, height: 320, paced: true)
        let app = try KioskApp(configPath: path, config: config, display: display, inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 60)
        let run = try runAfterStartUp(app, display: display, window: 1.5)
        XCTAssertGreaterThan(app.framesPresented, 0, "the carousel was drawn")
        XCTAssertLessThan(app.loopWakeups, 300, "the loop slept instead of spinning (\(app.loopWakeups) wake-ups in all)")
        XCTAssertEqual(run.framesAfter.count, 0, "no frame once every card is in")
        // The fade's last tick, the paced display's end of cap, the test's stop: a few, not a spin.
        XCTAssertLessThanOrEqual(run.wakeupsAfter, 5, "still: \(run.wakeupsAfter) wake-ups in the 1.5 s after start-up")
        print("idle: settled at \(run.settled) s after \(app.loopWakeups - run.wakeupsAfter) wake-ups; \(run.wakeupsAfter) in the 1.5 s after")
    }
}
