import Cards
import Display
import Foundation
import KioskConfig
import LinuxSystem
import Logging
import XCTest
@testable import Kiosk

/// `run` starts with its file read without the fonts looked up and the clips opened
/// (`StartingConfigCheck.afterFirstFrame`): the loop checks it once the first frame went to the
/// display, off the loop as a reload is read. A file that passes stays as it runs; one with
/// problems gives way to the problem card, as a start that had found them would have begun; a
/// reload asked for before the check ended is taken as the check (docs/start-up.md stop 71).
final class StartingConfigCheckTests: ConfigFolderTestCase {
    override var folderPrefix: String { "starting-check" }

    let head = "[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n"
    let titled = (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined()
    let missingFont = "[theme.title_overlay]\nfont = \"No Such Font Family 12\"\n"

    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    func clipItem(_ id: String) throws -> String {
        // The injected prober does not read it: any readable file.
        try Data("not read".utf8).write(to: URL(fileURLWithPath: folder + "/\(id).mp4"))
        return "[[item]]\nid = \"\(id)\"\nvideo = \"\(id).mp4\"\n"
    }

    /// What `run` does: the file read without its media checked, the check owed to the loop.
    func makeApp(media: MediaChecks = MediaFileCheck.kiosk, parses: ParsedTextCache? = nil,
                 notifier: SystemdNotifier? = nil) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: 480, height: 320)
        let opening = try ConfigLoader.loadForRun(path: path, parses: parses)
        let app = try KioskApp(configPath: path, config: opening, display: display, inputs: [], log: try EventLog(path: nil),
                               logger: Logger(label: "test"), notifier: notifier,
                               startingCheck: .afterFirstFrame(parses: parses), media: media)
        return (app, display)
    }

    func reloadedLines(_ app: KioskApp) -> [String] { app.behavior.log.lines.filter { $0.contains("\"reloaded\"") } }

    func testAFileThatPassesStaysAsItRuns() throws {
        try write(head + titled + clipItem("clip"))
        final class Probed: @unchecked Sendable { var paths: [String] = [] }
        let probed = Probed()
        let media = MediaChecks(clip: { path in probed.paths.append((path as NSString).lastPathComponent); return nil })
        let parses = ParsedTextCache()
        let (app, display) = try makeApp(media: media, parses: parses)
        XCTAssertEqual(app.session.config.items.count, 4)
        var readingAtFirstFrame: Bool?
        display.onFrameShown = { [unowned app] _ in readingAtFirstFrame = readingAtFirstFrame ?? app.reloader.isBusy }

        _ = app.beforeWait()
        XCTAssertEqual(readingAtFirstFrame, false, "step 1: nothing is read before the first frame is on the screen")
        XCTAssertEqual(display.presentedFrames, 1, "step 1: the first frame")
        XCTAssertTrue(app.reloader.isBusy, "step 1: the check began in the pass that drew the first frame")
        app.finishPendingReloads()
        XCTAssertEqual(probed.paths, ["clip.mp4"], "the clip was opened by the check")
        XCTAssertTrue(app.configProblems.isEmpty)
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(app.session.config.items.map(\.id), ["i0", "i1", "i2", "clip"])
        XCTAssertEqual(app.behavior.configGeneration, 1, "not a reload")
        XCTAssertEqual(reloadedLines(app), [], "not a reload")
        XCTAssertNil(app.reloader.parses, "the start's parse is let go")

        // The reloads after it are reloads.
        try write(head + titled)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertEqual(app.behavior.configGeneration, 2)
        XCTAssertEqual(reloadedLines(app).count, 1)
    }

    func testAFontThatIsNotInstalledGivesWayToTheProblemCard() throws {
        try write(head + missingFont + titled)
        let manager = try KioskAppConfigProblemTests.NotifySocket(path: folder + "/notify")
        let (app, display) = try makeApp(notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": manager.path]))
        XCTAssertEqual(app.session.config.items.count, 3, "the file runs until it is checked")

        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 1, "step 1: the first frame, the file's carousel")
        let ready = try XCTUnwrap(manager.receive())
        XCTAssertTrue(ready.hasPrefix("READY=1\nSTATUS=showing 3 items"), ready)
        app.finishPendingReloads()
        XCTAssertEqual(app.configProblems.count, 1, "step 2: the check's problem")
        XCTAssertTrue(app.configProblems[0].description.hasPrefix(path + ":5:8: 'font' \"No Such Font Family 12\" is not installed"),
                      "\(app.configProblems)")
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage, "step 2: the problem card")
        XCTAssertEqual(card.title, "The configuration has problems")
        XCTAssertTrue(card.lines.contains { $0.hasPrefix(path + ":5:8: ") }, "\(card.lines)")
        XCTAssertEqual(app.session.config.items.count, 0, "what runs is what a start with the problem would have run")
        XCTAssertEqual(app.behavior.loadedConfig, KioskApp.configurationWhileInvalid(path: path))
        XCTAssertEqual(manager.receive(), "STATUS=waiting for a valid configuration: 1 problem(s) in \(path)")
        XCTAssertEqual(reloadedLines(app), [], "not a reload")
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 2, "step 3: the card is drawn")
        XCTAssertNotEqual(display.screen[240, 160], display.screen[2, 2], "a plate in the middle, not the carousel's background")
        if let dir = ProcessInfo.processInfo.environment["KIOSK_MESSAGE_PNG_DIR"] {
            try display.writePNG(to: "\(dir)/run-problem-after-first-frame-480x320.png")
        }

        // Fixed: the carousel again, as after any start with problems.
        try write(head + titled)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertTrue(app.configProblems.isEmpty)
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(app.session.config.items.count, 3)
    }

    func testAClipThatCannotBeOpenedGivesWayToTheProblemCard() throws {
        try write(head + titled + clipItem("broken"))
        let (app, _) = try makeApp(media: MediaChecks(clip: { _ in "no decoder for its codec" }))
        _ = app.beforeWait()
        app.finishPendingReloads()
        XCTAssertEqual(app.configProblems.count, 1, "\(app.configProblems)")
        XCTAssertTrue(app.configProblems[0].description.contains("no decoder for its codec"), "\(app.configProblems)")
        XCTAssertNotNil(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(app.session.config.items.count, 0)
    }

    /// A reload asked for while the check reads (SIGHUP, the control socket, a changed file) is
    /// merged with it (`ConfigReloader`): its outcome is the check's. A font broken by the edit
    /// brings the problem card, not "kept the running configuration" over an unchecked file.
    func testAReloadBeforeTheCheckEndsIsTakenAsTheCheck() throws {
        try write(head + titled + clipItem("clip"))
        let prober = ConfigReloaderTests.HeldProber()
        let (app, _) = try makeApp(media: MediaChecks(clip: prober.checks.clip, font: MediaFileCheck.kiosk.font))
        _ = app.beforeWait()
        XCTAssertEqual(prober.entered.wait(timeout: .now() + 60), .success, "step 1: the check opens the clip")
        try write(head + missingFont + titled + clipItem("clip"))
        var answer: Bool?
        app.requestReload(reason: "SIGHUP") { answer = $0 }
        prober.release()
        app.finishPendingReloads()
        XCTAssertEqual(answer, false, "step 2: the reload's answer")
        XCTAssertEqual(app.configProblems.count, 1, "step 2: the edited file's problem, as the check's: \(app.configProblems)")
        XCTAssertNotNil(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(app.session.config.items.count, 0)
        XCTAssertFalse(prober.gaveUp)
    }

    /// The file changed between the start's reading and the check, and passes: adopted as a reload.
    func testAFileChangedBeforeTheCheckIsAdoptedAsAReload() throws {
        try write(head + titled)
        let (app, _) = try makeApp()
        try write(head + titled + "[[item]]\nid = \"new\"\ntitle = \"New\"\n")
        _ = app.beforeWait()
        app.finishPendingReloads()
        XCTAssertTrue(app.configProblems.isEmpty)
        XCTAssertEqual(app.session.config.items.map(\.id), ["i0", "i1", "i2", "new"])
        XCTAssertEqual(app.behavior.configGeneration, 2)
        XCTAssertEqual(reloadedLines(app).count, 1)
    }

    /// A kiosk given a file already checked (`.done`, the default) reads nothing after its first frame.
    func testAFileCheckedBeforeTheStartIsNotReadAgain() throws {
        try write(head + titled)
        let display = HeadlessDisplay(width: 480, height: 320)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.loadForRun(path: path, media: MediaFileCheck.kiosk),
                               display: display, inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"),
                               notifier: nil)
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 1)
        XCTAssertFalse(app.reloader.isBusy)
    }
}
