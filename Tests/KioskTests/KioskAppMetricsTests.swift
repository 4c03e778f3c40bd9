import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// `[metrics]` in the real loop: the file is written when the kiosk starts and when its facts
/// change, at most every `interval`, and a still kiosk keeps sleeping (no wake-ups for metrics).
final class KioskAppMetricsTests: XCTestCase {
    func testRunningKioskWritesItsMetricsAndStillSleeps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-app-\(UUID().uuidString)")
        let collector = folder.appendingPathComponent("textfile").path
        try FileManager.default.createDirectory(atPath: collector, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"coverflow\"\nitem_size = [160, 120]\n[metrics]\nfile = \"\(collector)\"\ninterval = 1\n"
        for i in 0..<8 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        XCTAssertEqual(config.metrics.interval, 1)
        let display = HeadlessDisplay(width: 480, height: 320, paced: true)
        let app = try KioskApp(configPath: path, config: config, display: display, inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 60)
        let run = try runAfterStartUp(app, display: display, window: 2.5)
        let metrics = try XCTUnwrap(app.metrics)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: collector), ["kiosk_carousel.prom"], "no temporary left")
        let file = try String(contentsOfFile: collector + "/kiosk_carousel.prom", encoding: .utf8)
        XCTAssertTrue(file.contains("kiosk_carousel_frames_presented_total \(app.framesPresented)\n"), "the last facts are in the file")
        XCTAssertTrue(file.contains("kiosk_carousel_display_connected 1\n"))
        XCTAssertTrue(file.contains("kiosk_carousel_display_mode_info{mode=\"480x320@"))
        XCTAssertTrue(file.contains("kiosk_carousel_current_item_info{id=\"i0\"} 1\n"))
        XCTAssertTrue(file.contains("kiosk_carousel_config_generation 1\n"))
        XCTAssertTrue(file.contains("kiosk_carousel_process_resident_memory_bytes "))
        let heap = try XCTUnwrap(file.split(separator: "\n").first { $0.hasPrefix("kiosk_carousel_heap_bytes ") })
        XCTAssertGreaterThan(Int(heap.split(separator: " ")[1]) ?? 0, 0, "malloc's bytes in use, read at the write")
        // The facts change while cards arrive and are drawn, then not at all: a write at the
        // start, at most one per second until the settled frame, then the one that frame's facts
        // wait for (`interval` after the write before), and none in the still seconds after it.
        let allowed = 2 + Int(run.settled / config.metrics.interval)
        XCTAssertGreaterThanOrEqual(metrics.file.writes, 1)
        XCTAssertLessThanOrEqual(metrics.file.writes, allowed,
                                 "\(metrics.file.writes) writes for a kiosk that settled at \(run.settled) s and then stood still for 2.5 s")
        XCTAssertEqual(run.framesAfter.count, 0, "nothing to draw after start-up")
        XCTAssertLessThan(run.wakeupsAfter, 10, "the loop slept after start-up (\(run.wakeupsAfter) wake-ups in 2.5 s)")
        XCTAssertLessThan(app.loopWakeups, 300, "and during it (\(app.loopWakeups) wake-ups in all)")
        print("metrics: \(metrics.file.writes) writes, settled at \(run.settled) s, then \(run.wakeupsAfter) loop wake-ups in 2.5 s; \(app.framesPresented) frames")
        let state = try XCTUnwrap(app.health)
        XCTAssertEqual(state.framesPresented, app.framesPresented)
        XCTAssertEqual(state.itemIDs.count, 8)
        XCTAssertNotNil(state.lastFrameTime)
    }

    func testUnwritableMetricsFolderDoesNotStopTheKiosk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.toml").path
        let text = "[metrics]\nfile = \"missing/kiosk.prom\"\n[[item]]\nid = \"a\"\ntitle = \"A\"\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        XCTAssertEqual(config.metrics.file, folder.path + "/missing/kiosk.prom", "relative to the config file's folder")
        let app = try KioskApp(configPath: path, config: config, display: HeadlessDisplay(width: 320, height: 240, paced: true),
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 1)
        XCTAssertEqual(try app.run(), 0, "the kiosk ran and stopped as usual")
        XCTAssertGreaterThan(app.framesPresented, 0)
        let metrics = try XCTUnwrap(app.metrics)
        XCTAssertEqual(metrics.file.writes, 0)
        XCTAssertGreaterThanOrEqual(metrics.file.failures, 1)
    }
}
