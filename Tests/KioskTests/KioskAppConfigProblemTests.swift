import Cards
import Display
import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging
import Raster
import XCTest
@testable import Kiosk

/// `run` with a config file that does not validate (or none): the screen shows the problems
/// (`MessageCard`), systemd hears READY, and the first valid file starts the carousel without a
/// restart (issue 20 §5). And a carousel with no items shows where to put them.
final class KioskAppConfigProblemTests: ConfigFolderTestCase {
    override var folderPrefix: String { "config-problem" }

    let good = "[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n"
        + (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined()

    /// What `RunCommand` does: the problems, and the defaults with what can be read of `[display]`.
    func problems() -> [ConfigDiagnostic] {
        do { _ = try ConfigLoader.load(path: path); return [] } catch let e as ConfigErrors { return e.diagnostics } catch { return [] }
    }

    func makeApp(_ display: HeadlessDisplay, notifier: SystemdNotifier? = nil, exitAfter: Double? = nil) throws -> KioskApp {
        var config = KioskConfiguration()
        config.display = ConfigLoader.readableDisplaySettings(path: path)
        return try KioskApp(configPath: path, config: config, display: display, inputs: [], log: try EventLog(path: nil),
                            logger: Logger(label: "test"), exitAfter: exitAfter, notifier: notifier, configProblems: problems())
    }

    func savePNG(_ display: HeadlessDisplay, _ name: String) throws {
        if let dir = ProcessInfo.processInfo.environment["KIOSK_MESSAGE_PNG_DIR"] { try display.writePNG(to: "\(dir)/\(name).png") }
    }

    /// A datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let fd: Int32
        let path: String
        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            if UnixSocketAddress.with(path, { bind(fd, $0, $1) }) != 0 { throw SystemCallError(call: "bind") }
        }
        deinit { close(fd) }
        func receive() -> String? {
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            return n >= 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }
    }

    func testBadFileShowsItsProblemsThenAFixedFileStartsTheCarousel() throws {
        try "[carousel]\ntype = \"linear\"\nspead = 3\n[[item]]\nid = \"a\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let manager = try NotifySocket(path: folder + "/notify")
        let display = HeadlessDisplay(width: 800, height: 480)
        let app = try makeApp(display, notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": manager.path]))
        XCTAssertFalse(app.configProblems.isEmpty)
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(card.title, "The configuration has problems")
        XCTAssertTrue(card.lines.contains { $0.hasPrefix(path + ":3:1: ") }, "\(card.lines)")
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 1, "the card is on the screen")
        let ready = try XCTUnwrap(manager.receive())
        XCTAssertTrue(ready.hasPrefix("READY=1\nSTATUS=waiting for a valid configuration: 1 problem(s)"), ready)
        let background = display.screen[2, 2]
        XCTAssertNotEqual(display.screen[400, 240], background, "a plate in the middle, not a bare background")
        try savePNG(display, "run-problems-800x480")

        // Still wrong, differently: the card shows the new problems.
        try "[carousel]\ntype = \"linear\"\n\n\nitem_size = \"big\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertFalse(app.reload(reason: "test"))
        XCTAssertTrue(try XCTUnwrap(app.behavior.sceneCards.shownMessage).lines.contains { $0.hasPrefix(path + ":5:") },
                      "\(app.behavior.sceneCards.shownMessage?.lines ?? [])")
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 2, "the new card is drawn")

        // Fixed: the carousel, without a restart.
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertTrue(app.configProblems.isEmpty)
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(app.session.config.items.count, 3)
        XCTAssertEqual(manager.receive(), "STATUS=showing 3 items")
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, 3)
    }

    /// The real loop: the file is fixed while `run()` waits in epoll; inotify brings the carousel up.
    /// The steps follow what is shown, not a clock: the fix is written once the problem card is
    /// on screen (so `run()` watches the file), and the run ends with the carousel's first frame.
    func testFixingTheFileWhileRunningStartsTheCarousel() throws {
        try "[carousel\n".write(toFile: path, atomically: true, encoding: .utf8)
        let display = HeadlessDisplay(width: 480, height: 320, paced: true)
        let app = try makeApp(display, exitAfter: 60)  // only a bound: the run ends with the carousel's frame
        XCTAssertEqual(app.configProblems.count, 1)
        XCTAssertTrue(app.configProblems[0].message.hasPrefix("TOML syntax error"), "\(app.configProblems)")
        let text = good
        let file = path
        var fixed = false
        display.onFrameShown = { [unowned app] _ in
            if !fixed {
                fixed = true
                DispatchQueue.global().async { try? text.write(toFile: file, atomically: true, encoding: .utf8) }
            } else if app.configProblems.isEmpty && app.behavior.sceneCards.shownMessage == nil {
                app.reactor.stop()
            }
        }
        XCTAssertEqual(try app.run(), 0)
        XCTAssertTrue(app.configProblems.isEmpty, "the fixed file was seen: \(app.configProblems)")
        XCTAssertEqual(app.session.config.items.count, 3)
        XCTAssertNil(app.behavior.sceneCards.shownMessage)
        XCTAssertGreaterThanOrEqual(display.presentedFrames, 2, "the card, then the carousel")
    }

    func testAMissingFileIsNamedAndItsArrivalStartsTheCarousel() throws {
        let display = HeadlessDisplay(width: 1920, height: 1080)
        let app = try makeApp(display)
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(card.title, "The configuration cannot be read")
        XCTAssertTrue(card.lines[0].hasPrefix(path + ": no such file"), "\(card.lines)")
        _ = app.beforeWait()
        try savePNG(display, "run-missing-1920x1080")
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "SIGHUP"))
        XCTAssertEqual(app.session.config.items.count, 3)
    }

    /// The problem card is drawn as the scene: a rotated display gets it rotated, as the carousel.
    func testTheCardFollowsTheRotationThatCanBeRead() throws {
        try "[display]\nrotation = 90\n[carousel]\nspead = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigLoader.readableDisplaySettings(path: path).rotation, 90)
        try "[display]\nrotation = 91\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigLoader.readableDisplaySettings(path: path).rotation, DisplaySettings().rotation,
                       "a key with a problem keeps its default")
        try "[display\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigLoader.readableDisplaySettings(path: path), DisplaySettings())
    }

    /// The control socket a bad file names is opened while the card shows (its `reload` goes
    /// through `KioskApp.finishReload`, as SIGHUP's), and stays when the fixed file starts the carousel.
    func testTheControlSocketThatCanBeReadIsUp() throws {
        let socket = folder + "/control.sock"
        try "[control]\nsocket = \"\(socket)\"\n[carousel]\nspead = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigLoader.readableTables(["display", "control"], path: path).control.socket, socket)
        XCTAssertNil(ConfigLoader.readableTables(["display"], path: path).control.socket)
        var config = KioskConfiguration()
        config.control = ConfigLoader.readableTables(["display", "control"], path: path).control
        let app = try KioskApp(configPath: path, config: config, display: HeadlessDisplay(width: 320, height: 240), inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil,
                               configProblems: problems())
        XCTAssertEqual(app.control?.path, socket, "the socket is up while the card shows")
        try ("[control]\nsocket = \"\(socket)\"\n" + good).write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "control socket"))
        XCTAssertEqual(app.control?.path, socket)
        app.control?.close()
    }

    func testEmptyItemsFolderSaysWhereToPutPicturesUntilOneComes() throws {
        let pictures = folder + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        try "[items]\ndirectory = \"pictures\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let display = HeadlessDisplay(width: 800, height: 480)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path), display: display, inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil)
        let card = try XCTUnwrap(app.behavior.sceneCards.shownMessage)
        XCTAssertEqual(card.title, "No items yet")
        XCTAssertEqual(card.lines, ["Add pictures to \((pictures as NSString).standardizingPath)"])
        _ = app.beforeWait()
        XCTAssertNotEqual(display.screen[400, 240], display.screen[2, 2], "the face is drawn in the middle")
        try savePNG(display, "run-empty-800x480")

        try TexturePNG.write(Texture(width: 8, height: 8), to: pictures + "/one.png")
        XCTAssertTrue(app.reload(reason: "the items folder changed"))
        XCTAssertNil(app.behavior.sceneCards.shownMessage, "the picture is shown")
        XCTAssertEqual(app.session.config.items.count, 1)
    }

    func testNoItemTablesPointAtTheConfigFile() throws {
        try "[carousel]\ntype = \"linear\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let session = CarouselSession(config: try ConfigLoader.load(path: path), width: 320, height: 240)
        let cards = SceneCards(session: session)
        XCTAssertEqual(cards.shownMessage?.lines, ["Add [[item]] tables to \(path)"])
        XCTAssertFalse(withExtendedLifetime(cards) { session.renderFrame().isEmpty }, "the face is drawn")
    }
}
