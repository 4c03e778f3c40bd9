import Cards
import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// The running kiosk and the updater (issue 29 §2–3): `update/status.json` and `update/boot.json`
/// shown as cards, their facts in `state` and the metrics; broken files are said and ignored.
final class KioskAppUpdateTests: XCTestCase {
    var folder: String!
    var path: String { folder + "/config.toml" }
    var paths: UpdatePaths { UpdatePaths(folder: folder + "/update") }

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "kiosk-update-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/update", withIntermediateDirectories: true)
        try "[usb]\nnotice_seconds = 5\n[[item]]\nid = \"m\"\ntitle = \"Machine\"\n".write(toFile: path, atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func makeApp() throws -> KioskApp {
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: HeadlessDisplay(width: 800, height: 480),
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil)
        app.updates.paths = paths
        return app
    }

    func write(_ state: UpdateStatus.State, _ message: String, time: Double = Date().timeIntervalSince1970) throws {
        try UpdateStatus(state: state, time: time, source: "https://u.example.com/b.raucb", message: message, version: "0.1.2",
                         running: "0.1.1").write(to: paths.status)
    }

    func testEachStepShowsItsCard() throws {
        let app = try makeApp()
        try write(.checking, "Looking for an update…")
        app.updates.statusChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage, "a check is not news")
        try write(.downloading, "Downloading the update…")
        app.updates.statusChanged()
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "Updating…")
        try write(.installed, "Version 0.1.2 is installed; the kiosk restarts into it when nobody is using it.")
        try expectCard(app, "Update installed", ["The kiosk restarts when nobody is using it."], .notice)
        var h = KioskHealth()
        app.updates.report(into: &h)
        XCTAssertEqual(h.updateState, "installed")
        XCTAssertEqual(h.version, SystemIdentity().version)
        XCTAssertEqual(h.slot, SystemIdentity().slot)

        try write(.failed, "The update was refused: older than the running 0.1.1 (0.1.0).")
        try expectCard(app, "Update not installed", ["Refused: older than the running 0.1.1 (0.1.0)."], .problem)
    }

    /// The status file changed: the card it shows.
    func expectCard(_ app: KioskApp, _ title: String, _ lines: [String], _ tone: MessageCard.Tone,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        app.updates.statusChanged()
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage, file: file, line: line)
        XCTAssertEqual(card.title, title, file: file, line: line)
        XCTAssertEqual(card.lines, lines, file: file, line: line)
        XCTAssertEqual(card.tone, tone, file: file, line: line)
    }

    func testAnOldStatusIsNotNewsAndABrokenOneIsIgnored() throws {
        let app = try makeApp()
        try write(.failed, "old", time: Date().timeIntervalSince1970 - 3600)
        app.updates.statusChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        var h = KioskHealth()
        app.updates.report(into: &h)
        XCTAssertEqual(h.updateState, "failed", "no card, but still the last update's result")
        XCTAssertEqual(h.updateMessage, "old")
        try "{\"state\":\"exploded\"".write(toFile: paths.status, atomically: true, encoding: .utf8)
        app.updates.statusChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        XCTAssertThrowsError(try UpdateStatus.read(from: paths.status)) { e in
            XCTAssertTrue("\(e)".hasPrefix("\(paths.status): not JSON"), "\(e)")
        }
        try "{\"slot\":\"A\"}".write(toFile: paths.boot, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try BootReport.read(from: paths.boot)) { e in
            XCTAssertEqual("\(e)", "\(paths.boot): no \"version\"")
        }
        app.updates.bootChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
    }

    func testARollbackIsShownAndCounted() throws {
        let app = try makeApp()
        let running = app.updates.version
        try StatusFile.write(BootReport(slot: "A", version: running, rolledBack: true, rolledBackFrom: "B", failedVersion: "0.1.1"), to: paths.boot)
        app.updates.bootChanged()
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(card.title, "Rolled back to \(running)")
        XCTAssertEqual(card.lines, ["The new version 0.1.1 did not start."])
        app.updates.bootChanged()
        var h = KioskHealth()
        app.updates.report(into: &h)
        XCTAssertEqual(h.rollbacks, 1, "the same report is one rollback")
        XCTAssertEqual(h.slot, "A", "the slot the boot report names")
        XCTAssertTrue(PrometheusText.render(h).contains("kiosk_carousel_rollbacks_total 1\n"))
    }

    /// The kiosk starts before the image has written this boot's report: the one on disk may be
    /// an earlier boot's, of the version that failed (the rollback's own boot) or of the one
    /// before an update. It is neither shown nor taken for the slot; this boot's report, when it
    /// is written, is.
    func testAnEarlierBootsReportOfAnotherVersionWaitsForThisBoots() throws {
        let app = try makeApp()
        let running = app.updates.version
        try StatusFile.write(BootReport(slot: "B", version: running + ".1", rolledBack: true, rolledBackFrom: "A",
                                        failedVersion: running), to: paths.boot)
        app.updates.bootChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage, "an earlier boot's report (another version) is not this boot's")
        var h = KioskHealth()
        app.updates.report(into: &h)
        XCTAssertEqual(h.rollbacks, 0)
        XCTAssertNotEqual(h.slot, "B", "the slot is not taken from an earlier boot's report")
        try StatusFile.write(BootReport(slot: "A", version: running, rolledBack: true, rolledBackFrom: "B",
                                        failedVersion: running + ".1"), to: paths.boot)
        app.updates.bootChanged()
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage, "this boot's report, written after the start")
        XCTAssertEqual(card.title, "Rolled back to \(running)")
        h = KioskHealth()
        app.updates.report(into: &h)
        XCTAssertEqual(h.rollbacks, 1)
        XCTAssertEqual(h.slot, "A")
    }
}

/// Content from a server (`[content] url`) shows its own cards (not the USB stick's).
final class KioskAppServerContentTests: XCTestCase {
    func testServerContentCards() throws {
        let folder = NSTemporaryDirectory() + "kiosk-server-content-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/config.toml"
        try "[usb]\ncontent = \"usb\"\n[content]\nurl = \"https://c.example.com/lobby.kcb\"\n[[item]]\nid = \"m\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: HeadlessDisplay(width: 800, height: 480),
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil)
        XCTAssertEqual(app.usbStatusPath, folder + "/usb/status.json", "watched with [content] url alone")
        try ImportStatus(state: .failed, time: Date().timeIntervalSince1970, device: "https://c.example.com/lobby.kcb",
                         message: "The content from the server was not used.",
                         problems: ["The content bundle was refused: signed by a key this kiosk does not trust."])
            .write(to: folder + "/usb/status.json")
        app.usbStatusChanged()
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "The new content was not used")
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.lines, ["The content bundle was refused: signed by a key this kiosk does not trust."])
    }
}
