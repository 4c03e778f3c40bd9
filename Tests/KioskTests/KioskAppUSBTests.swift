import Cards
import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// The running kiosk and `usb-import` (issue 20 §4): the status file's news is shown as a card,
/// new content is loaded at once, a refused stick leaves the carousel as it was, and an old
/// status (an import done before this start) is not news.
final class KioskAppUSBTests: XCTestCase {
    var folder: String!
    var path: String { folder + "/config.toml" }
    var content: String { folder + "/usb" }

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "kiosk-usb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/stick/kiosk-carousel", withIntermediateDirectories: true)
        try """
            [carousel]
            type = "linear"
            item_size = [160, 120]
            [usb]
            import = true
            content = "usb"
            notice_seconds = 5
            [[item]]
            id = "m"
            title = "Machine"
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func makeApp(_ display: HeadlessDisplay) throws -> KioskApp {
        let config = try ConfigLoader.load(path: path)
        let app = try KioskApp(configPath: path, config: config, display: display, inputs: [], log: try EventLog(path: nil),
                               logger: Logger(label: "test"), notifier: nil)
        return app
    }

    func importStick(_ configText: String) throws -> ImportStatus? {
        try configText.write(toFile: folder + "/stick/kiosk-carousel/config.toml", atomically: true, encoding: .utf8)
        let machine = ImportedContent.machineConfiguration(path: path).config
        return ContentImporter(machine: machine, logger: Logger(label: "test")).importStick(root: folder + "/stick", device: "/dev/sdz")
    }

    func testNewContentIsLoadedAndConfirmedThenTheCardEnds() throws {
        let display = HeadlessDisplay(width: 800, height: 480)
        let app = try makeApp(display)
        XCTAssertTrue(FileManager.default.fileExists(atPath: content), "the kiosk made the content folder")
        _ = app.beforeWait()
        let background = display.screen[400, 40], centreBefore = display.screen[400, 240]
        XCTAssertEqual(try importStick("[[item]]\nid = \"s1\"\ntitle = \"One\"\n[[item]]\nid = \"s2\"\ntitle = \"Two\"\n")?.state, .done)
        let before = app.now
        app.usbStatusChanged()
        app.finishPendingReloads()
        let after = app.now
        XCTAssertEqual(app.session.config.items.map(\.id), ["s1", "s2"])
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "New content from the USB stick")
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.lines, ["2 items to show. You can take the stick out."])
        _ = app.beforeWait()
        XCTAssertEqual(display.screen[400, 40], background)
        XCTAssertNotEqual(display.screen[400, 240], centreBefore, "the card's plate over the carousel")
        let due = try XCTUnwrap(app.nextNoticeEnd)
        // notice_seconds from when the card was shown (between the two readings: a slow host,
        // qemu-user, takes a second to reload).
        XCTAssertTrue(due >= before + 5 && due <= after + 5, "due \(due), shown between \(before) and \(after)")
        app.endNoticeIfDue(now: due)
        XCTAssertNil(app.behavior.sceneCards.shownMessage, "the stick's carousel")
        // The same status seen again (another inotify event of the same write) is not news.
        app.usbStatusChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
    }

    func testARefusedStickShowsItsProblemsAndKeepsTheCarousel() throws {
        let app = try makeApp(HeadlessDisplay(width: 800, height: 480))
        let status = try importStick("[display]\nrotation = 90\n[[item]]\nid = \"s\"\n")
        XCTAssertEqual(status?.state, .failed)
        let before = app.now
        app.usbStatusChanged()
        let after = app.now
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(card.title, "This USB stick was not used")
        XCTAssertEqual(card.tone, .problem)
        XCTAssertTrue(card.lines[0].hasPrefix("kiosk-carousel/config.toml:1:2: [display]"), "\(card.lines)")
        XCTAssertEqual(app.session.config.items.map(\.id), ["m"])
        let due = try XCTUnwrap(app.nextNoticeEnd)
        XCTAssertTrue(due >= before + 10 && due <= after + 10, "twice notice_seconds: due \(due), shown between \(before) and \(after)")
    }

    func testAStickBringsUpAKioskWhoseOwnFileIsBroken() throws {
        try "[usb]\nimport = true\ncontent = \"usb\"\n[carousel]\nspead = 3\n[[item]]\nid = \"m\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let problems: [ConfigDiagnostic]
        do { _ = try ConfigLoader.load(path: path); problems = [] } catch let e as ConfigErrors { problems = e.diagnostics }
        XCTAssertEqual(problems.count, 1)
        // As RunCommand starts it: the problem card, with the [usb] that could be read.
        var config = KioskConfiguration()
        config.usb = ConfigLoader.readableTables(["usb"], path: path).usb
        let app = try KioskApp(configPath: path, config: config, display: HeadlessDisplay(width: 800, height: 480), inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil, configProblems: problems)
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "The configuration has problems")
        XCTAssertEqual(try importStick("[[item]]\nid = \"s\"\ntitle = \"From the stick\"\n")?.state, .done)
        app.usbStatusChanged()
        app.finishPendingReloads()
        XCTAssertTrue(app.configProblems.isEmpty, "the carousel started")
        XCTAssertEqual(app.session.config.items.map(\.id), ["s"])
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "New content from the USB stick")
        XCTAssertEqual(app.behavior.loadedConfig.machineProblems, problems)
        // check-config still says the file is wrong.
        XCTAssertThrowsError(try ConfigLoader.load(path: path))
        // What runs is a rescue: the next stick's content is taken over the same broken file.
        XCTAssertEqual(try importStick("[[item]]\nid = \"t\"\ntitle = \"The next stick\"\n")?.state, .done)
        app.usbStatusChanged()
        app.finishPendingReloads()
        XCTAssertEqual(app.session.config.items.map(\.id), ["t"])
        XCTAssertEqual(app.behavior.configLoadErrors, 0)
    }

    /// A file that breaks while a good one runs is refused, also while a stick's content is
    /// current (found by the endurance run: it was adopted without its broken table, counted
    /// nowhere).
    func testAFileBrokenWhileAGoodOneRunsIsRefusedAlsoOverAStick() throws {
        let app = try makeApp(HeadlessDisplay(width: 800, height: 480))
        XCTAssertEqual(try importStick("[[item]]\nid = \"s\"\ntitle = \"From the stick\"\n")?.state, .done)
        app.usbStatusChanged()
        app.finishPendingReloads()
        XCTAssertEqual(app.session.config.items.map(\.id), ["s"])
        let generation = app.behavior.configGeneration
        let good = try String(contentsOfFile: path, encoding: .utf8)
        try ("[display]\npixel_shift = 99\n" + good).write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertFalse(app.reload(reason: "test"), "refused")
        XCTAssertEqual(app.behavior.configGeneration, generation, "the running configuration kept")
        XCTAssertEqual(app.behavior.configLoadErrors, 1)
        XCTAssertEqual(app.behavior.lastReloadProblems.map(\.line), [2], "pixel_shift's line")
        XCTAssertTrue(app.behavior.loadedConfig.machineProblems.isEmpty)
        XCTAssertEqual(app.session.config.items.map(\.id), ["s"])
        XCTAssertEqual(app.session.config.display.pixelShift, 0, "[display] as it was")
        // Mended: adopted again.
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "pixel_shift = 99", with: "pixel_shift = 2")
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertEqual(app.session.config.display.pixelShift, 2)
        XCTAssertEqual(app.session.config.items.map(\.id), ["s"])
    }

    func testProgressShowsAReadingCardAndAnOldStatusIsNotNews() throws {
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
        try ImportStatus(state: .done, time: Date().timeIntervalSince1970 - 3600, device: "/dev/sdz", message: "old")
            .write(to: ImportStatus.path(in: content))
        let app = try makeApp(HeadlessDisplay(width: 800, height: 480))
        app.usbStatusChanged()
        XCTAssertNil(app.behavior.sceneCards.shownMessage, "an import before this start")
        try ImportStatus(state: .checking, time: Date().timeIntervalSince1970, device: "/dev/sdz", message: "Reading")
            .write(to: ImportStatus.path(in: content))
        app.usbStatusChanged()
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "Reading the USB stick…")
        // A FAT stick read off by mtools: the same card while its bytes come in.
        try ImportStatus(state: .reading, time: Date().timeIntervalSince1970, device: "/dev/sdz", message: "Reading", bytes: 1 << 20)
            .write(to: ImportStatus.path(in: content))
        app.usbStatusChanged()
        XCTAssertEqual(app.behavior.sceneCards.shownMessage?.title, "Reading the USB stick…")
        XCTAssertEqual(ImportStatus.read(from: ImportStatus.path(in: content))?.state, .reading)
    }
}
