import Display
import Foundation
import Input
import KioskConfig
import LinuxSystem
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// The services a configuration switches on come up, go down or change with every
/// configuration the kiosk adopts: at start, when a file that did not validate is fixed, and at
/// every reload (issue 27 §1: after a start with a broken file, the fixed file's `[metrics]`
/// never wrote a file, and a reload only warned "takes effect at the next start").
final class KioskAppServicesTests: ConfigFolderTestCase {
    override var folderPrefix: String { "services" }

    let items = "[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n"
        + (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined()
    /// A syntax error on the first line: nothing of the file can be read.
    let unreadable = "[carousel\n"

    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    /// What the kiosk logged.
    let log = LogCapture()

    /// As `run` starts: the file's problems on the screen with what can be read of it, or the file.
    func startApp() throws -> KioskApp {
        var problems: [ConfigDiagnostic] = []
        var config: KioskConfiguration
        do { config = try ConfigLoader.loadForRun(path: path) } catch let e as ConfigErrors {
            problems = e.diagnostics
            config = KioskApp.configurationWhileInvalid(path: path)
        }
        return try KioskApp(configPath: path, config: config, display: HeadlessDisplay(width: 320, height: 240), inputs: [],
                            log: try EventLog(path: nil), logger: log.logger, notifier: nil, configProblems: problems)
    }

    /// One loop pass's work without the loop: control commands, a reload read off the loop that
    /// ended, then the frame, the metrics and the retired sockets (`beforeWait`).
    func pump(_ app: KioskApp) {
        if let c = app.control { app.handleControl(c) }
        if waitReadable(app.reloader.fd, timeout: 0.01) { app.reloader.finish() }
        _ = app.beforeWait()
    }

    /// Pumps `app` until `condition` holds; false after `limit` seconds.
    func pump(_ app: KioskApp, until condition: () -> Bool, limit: Double = 10) -> Bool {
        let end = monotonicNow() + limit
        while !condition() {
            if monotonicNow() > end { return false }
            pump(app)
            usleep(10_000)
        }
        return true
    }

    func metricsFile(_ collector: String) -> String {
        (try? String(contentsOfFile: collector + "/kiosk_carousel.prom", encoding: .utf8)) ?? ""
    }

    func testMetricsFollowABadStartTheFixAndReloads() throws {
        let first = folder + "/collector", second = folder + "/collector2"
        for c in [first, second] { try FileManager.default.createDirectory(atPath: c, withIntermediateDirectories: true) }
        let metrics = "[metrics]\nfile = \"\(first)\"\ninterval = 1\n"
        try write(unreadable + metrics + items)
        let app = try startApp()
        XCTAssertFalse(app.configProblems.isEmpty)
        XCTAssertNil(app.metrics, "nothing of the file could be read")

        try write(metrics + items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertEqual(app.metrics?.file.path, first, "the fixed file's [metrics]")
        XCTAssertTrue(pump(app) { metricsFile(first).contains("kiosk_carousel_config_generation 2\n") },
                      "step 1: the fixed file's facts in \(first): \(metricsFile(first))")

        try write(metrics.replacingOccurrences(of: first, with: second) + items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertEqual(app.metrics?.file.path, second, "a reload moves the file")
        XCTAssertTrue(pump(app) { metricsFile(second).contains("kiosk_carousel_config_generation 3\n") },
                      "step 2: the moved file: \(metricsFile(second))")

        try write(items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertNil(app.metrics, "a reload without [metrics] ends the file")
        XCTAssertTrue(metricsFile(second).contains("kiosk_carousel_config_generation 3\n"), "it keeps its last facts")
    }

    /// What a start with a file that does not validate reads of `[metrics]`: a fleet sees the
    /// kiosk waiting (its problem card's frame, `config_load_errors`).
    func testMetricsThatCanBeReadAreWrittenWhileTheProblemCardShows() throws {
        let collector = folder + "/collector"
        try FileManager.default.createDirectory(atPath: collector, withIntermediateDirectories: true)
        try write("[metrics]\nfile = \"\(collector)\"\ninterval = 1\n[carousel]\ntype = \"rotray\"\n" + items.replacingOccurrences(of: "[carousel]\ntype = \"linear\"\n", with: ""))
        let app = try startApp()
        XCTAssertEqual(app.configProblems.count, 1, "\(app.configProblems)")
        XCTAssertNotNil(app.metrics)
        XCTAssertTrue(pump(app) { metricsFile(collector).contains("kiosk_carousel_frames_presented_total 1\n") },
                      "step 1: the card's frame: \(metricsFile(collector))")
        try write(unreadable)
        XCTAssertFalse(app.reload(reason: "the config file changed"))
        XCTAssertTrue(pump(app) { metricsFile(collector).contains("kiosk_carousel_config_load_errors_total 1\n") },
                      "step 2: the refused file counted: \(metricsFile(collector))")
    }

    func testTheControlSocketFollowsABadStartTheFixAndReloads() throws {
        let first = folder + "/first.sock", second = folder + "/second.sock"
        let control = "[control]\nsocket = \"\(first)\"\n"
        try write(unreadable + control + items)
        let app = try startApp()
        XCTAssertNil(app.control)

        try write(control + items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        let client = try KioskControlClient(path: first)
        client.send(#"{"cmd":"state"}"#)
        XCTAssertEqual(client.line(where: "reply", is: "state", pump: { pump(app) })?["item_count"]?.numberValue, 3,
                       "step 1: the fixed file's socket answers")

        // Moved by a reload asked for on the socket itself: the reply comes on the old one.
        try write(control.replacingOccurrences(of: first, with: second) + items)
        client.send(#"{"cmd":"reload"}"#)
        XCTAssertEqual(client.line(where: "reply", is: "reload", pump: { pump(app) })?["ok"], .bool(true), "step 2: the reload's reply")
        XCTAssertTrue(pump(app) { !FileManager.default.fileExists(atPath: first) }, "step 3: the old socket is gone")
        let moved = try KioskControlClient(path: second)
        moved.send(#"{"cmd":"state"}"#)
        XCTAssertNotNil(moved.line(where: "reply", is: "state", pump: { pump(app) }), "step 4: the new socket answers")

        try write(items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertNil(app.control)
        XCTAssertTrue(pump(app) { !FileManager.default.fileExists(atPath: second) }, "step 5: no [control], no socket")
    }

    /// A socket that cannot be made at a reload is logged; the one open stays.
    func testAControlSocketThatCannotBeMadeKeepsTheOneOpen() throws {
        let socket = folder + "/control.sock"
        try write("[control]\nsocket = \"\(socket)\"\n" + items)
        let app = try startApp()
        try write("[control]\nsocket = \"\(folder!)/not-a-folder/control.sock\"\n" + items)
        try Data().write(to: URL(fileURLWithPath: folder + "/not-a-folder"))
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertEqual(app.control?.path, socket)
        XCTAssertNotNil(try? KioskControlClient(path: socket))
    }

    func testScheduleAndPixelShiftFollowABadStartTheFixAndReloads() throws {
        let followed = "[display]\npixel_shift = 3\n[[schedule]]\nfrom = \"00:00\"\nto = \"24:00\"\nitems = [\"i1\"]\n"
        try write(unreadable + followed + items)
        let app = try startApp()
        XCTAssertFalse(app.behavior.schedule.isActive)
        XCTAssertFalse(app.behavior.pixelShift.pixelShift.isActive)

        try write(followed + items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertTrue(app.behavior.schedule.isActive, "the fixed file's [[schedule]]")
        XCTAssertEqual(app.session.config.items.map(\.id), ["i1"], "its open window's items are shown")
        XCTAssertNotNil(app.behavior.schedule.nextDeadline, "the service timer wakes for its next boundary")
        XCTAssertEqual(app.behavior.pixelShift.pixelShift.range, 3, "the fixed file's pixel_shift")
        XCTAssertNotNil(app.nextPixelShift, "the service timer wakes for its steps")
        XCTAssertFalse(log.lines.contains { $0.contains("take effect at the next start") }, "\(log.lines)")

        try write(items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertFalse(app.behavior.schedule.isActive)
        XCTAssertEqual(app.session.config.items.count, 3)
        XCTAssertFalse(app.behavior.pixelShift.pixelShift.isActive)
        XCTAssertNil(app.nextPixelShift)
    }

    func testTheUSBStatusIsWatchedAfterTheFixAndNotAfterItsRemoval() throws {
        let usb = "[usb]\nimport = true\ncontent = \"usb\"\n"
        try write(unreadable + usb + items)
        let app = try startApp()
        XCTAssertNil(app.usbStatusPath)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/usb"))

        try write(usb + items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        let status = try XCTUnwrap(app.usbStatusPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/usb"), "the content folder is made, to be watched")
        try ImportStatus(state: .checking, time: wallClock(), device: "/dev/sdz", message: "").write(to: status)
        XCTAssertTrue(waitReadable(app.files.fd, timeout: 10), "the status file is watched")
        app.filesChanged()
        XCTAssertEqual(app.behavior.sceneCards.notice?.card.title, "Reading the USB stick…")

        try write(items)
        XCTAssertTrue(app.reload(reason: "the config file changed"))
        XCTAssertNil(app.usbStatusPath, "a reload without [usb] import: no status file looked at")
    }

    /// `reload` over the socket answers whether the file was adopted and, when not, its
    /// problems as `check-config` prints them; the `reloaded` event says the same (issue 27 §2).
    func testAReloadRefusedOverTheSocketSaysWhy() throws {
        let socket = folder + "/control.sock"
        let control = "[control]\nsocket = \"\(socket)\"\n"
        try write(control + items)
        let app = try startApp()
        let client = try KioskControlClient(path: socket)
        try write(control + items.replacingOccurrences(of: "\"linear\"", with: "\"rotray\""))
        client.send(#"{"cmd":"reload","id":"r1"}"#)
        let reply = try XCTUnwrap(client.line(where: "reply", is: "reload", pump: { pump(app) }), "step 1: the reply")
        XCTAssertEqual(reply["ok"], .bool(false))
        XCTAssertEqual(reply["id"], .string("r1"))
        XCTAssertEqual(reply["error"]?.stringValue, "\(path) was not adopted (1 problem): the kiosk keeps what it showed")
        guard case .array(let problems)? = reply["problems"], problems.count == 1,
              let problem = problems[0].stringValue else { return XCTFail("problems: \(reply)") }
        XCTAssertTrue(problem.hasPrefix(path + ":4:8: 'type' \"rotray\" is not one of"), problem)
        XCTAssertEqual(reply["problem_count"]?.numberValue, 1)
        let event = try XCTUnwrap(client.line(where: "event", is: "reloaded", pump: { pump(app) }), "step 2: the event")
        XCTAssertEqual(event["ok"], .bool(false))
        XCTAssertEqual(event["problems"], reply["problems"])

        try write(control + items)
        client.send(#"{"cmd":"reload"}"#)
        XCTAssertEqual(client.line(where: "reply", is: "reload", pump: { pump(app) }).map { $0.count }, 2,
                       "step 3: adopted: {\"reply\":\"reload\",\"ok\":true}")
    }
}
