import CarouselCore
import Display
import Foundation
import Glibc
import Input
import KioskConfig
import LinuxSystem
import Logging
import XCTest
@testable import Kiosk

/// `run --latency-trace`: the loop passes each event's raw kernel time and each frame to the
/// recorder, and the trace file gets a header and one line per frame that showed new input.
final class KioskAppLatencyTests: XCTestCase {
    func testTraceHasAFrameLinePerFrameThatShowsNewInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configPath = folder.appendingPathComponent("config.toml").path
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [200, 150]\n"
        for i in 0..<10 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: configPath)
        let source = ScriptedInputSource()
        defer { source.close() }
        let display = HeadlessDisplay(width: 400, height: 240)
        let app = try KioskApp(configPath: configPath, config: config, display: display, inputs: [source],
                               log: try EventLog(path: nil), logger: Logger(label: "test"))
        let tracePath = folder.appendingPathComponent("trace.jsonl").path
        let trace = try LatencyTrace(path: tracePath)
        app.latencyTrace = trace
        app.startLatencyTrace(trace)

        _ = app.beforeWait()                                   // the first frame: no input yet
        let down = monotonicNow() - 0.004
        source.queued = [TimedInputEvent(time: down, event: .touchDown(slot: 0, x: 300, y: 120))]
        for k in 1...4 {
            source.queued.append(TimedInputEvent(time: down + Double(k) * 0.001, event: .touchMotion(slot: 0, x: 300 - Double(k) * 20, y: 120)))
        }
        app.readInput(source.fd)
        _ = app.beforeWait()                                   // the drag, drawn at once
        app.session.requestFullFrame()
        _ = app.beforeWait()                                   // no new input: not measured
        trace.close()

        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertEqual(lines.first?["kind"] as? String, "display")
        XCTAssertEqual(lines.first?["width"] as? Int, 400)
        let frame = try XCTUnwrap(lines.last)
        XCTAssertEqual(frame["kind"] as? String, "frame")
        XCTAssertEqual(frame["seq"] as? Int, 2)
        XCTAssertEqual(try XCTUnwrap(frame["input"] as? Double), down + 0.004, accuracy: 1e-5)
        XCTAssertEqual(frame["timing"] as? String, "submitted")
        let latency = try XCTUnwrap(frame["latency_ms"] as? Double)
        XCTAssertGreaterThan(latency, 0)
        XCTAssertLessThan(latency, 5_000)
    }
}
