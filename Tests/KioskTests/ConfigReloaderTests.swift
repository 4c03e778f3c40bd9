import Cards
import Display
import Foundation
import Input
import JSON
import KioskConfig
import LinuxSystem
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// Issue 27 §4: the running kiosk's reloads probe clips off the loop (`ConfigReloader`): the loop
/// keeps drawing and answering while a clip is probed, a refused clip gives `check-config`'s
/// list, and reloads asked for during a probe end with the newest file.
final class ConfigReloaderTests: XCTestCase {
    var folder: String!
    var path: String { folder + "/config.toml" }
    var socket: String { folder + "/control.sock" }

    override func setUpWithError() throws { folder = try temporaryDirectory() }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    var head: String { "[control]\nsocket = \"\(socket)\"\n[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n" }
    let titled = (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined()
    func clipItem(_ id: String) throws -> String {
        // The injected prober does not read it: any readable file.
        try Data("not read".utf8).write(to: URL(fileURLWithPath: folder + "/\(id).mp4"))
        return "[[item]]\nid = \"\(id)\"\nvideo = \"\(id).mp4\"\n"
    }

    /// A prober that holds its first clip until the test releases it (the later ones pass): a
    /// probe as slow as the test wants, without timing anything. It gives up after `limit`
    /// seconds so that a kiosk probing on its loop (which the test then holds) fails instead of
    /// hanging.
    final class HeldProber: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var released = false, first = true
        private(set) var gaveUp = false
        private(set) var probed: [String] = []
        let limit: Double = 20

        var checks: MediaChecks { MediaChecks(clip: { [self] path in probe(path) }) }

        private func probe(_ path: String) -> String? {
            lock.lock()
            probed.append((path as NSString).lastPathComponent)
            let hold = first && !released
            first = false
            lock.unlock()
            guard hold else { return nil }
            entered.signal()
            if gate.wait(timeout: .now() + limit) == .timedOut { lock.lock(); gaveUp = true; lock.unlock() }
            return nil
        }

        func release() { lock.lock(); released = true; lock.unlock(); gate.signal() }
    }

    func makeApp(media: MediaChecks) throws -> (KioskApp, HeadlessDisplay) {
        let display = HeadlessDisplay(width: 320, height: 240)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.loadForRun(path: path, media: media), display: display,
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), notifier: nil, media: media)
        return (app, display)
    }

    /// One loop pass without the loop: control commands, a finished read, the frame.
    func pump(_ app: KioskApp) {
        if let c = app.control { app.handleControl(c) }
        if waitReadable(app.reloader.fd, timeout: 0.01) { app.reloader.finish() }
        _ = app.beforeWait()
    }

    func testAReloadWithANewClipKeepsTheLoopDrawingAndAnswering() throws {
        try write(head + titled)
        let prober = HeldProber()
        let (app, display) = try makeApp(media: prober.checks)
        _ = app.beforeWait()
        let reloading = try KioskControlClient(path: socket), monitor = try KioskControlClient(path: socket)

        try write(head + titled + clipItem("new"))
        reloading.send(#"{"cmd":"reload","id":"r"}"#)
        let end = monotonicNow() + 30
        while !app.reloader.isBusy && monotonicNow() < end { pump(app) }
        XCTAssertTrue(app.reloader.isBusy, "step 1: the reload asked for over the socket within 30 s")
        XCTAssertEqual(prober.entered.wait(timeout: .now() + 60), .success, "step 1: the new clip is being probed")

        // While the clip is held: the loop answers `state` and draws frames, with what it showed.
        monitor.send(#"{"cmd":"state","id":"s"}"#)
        let state = try XCTUnwrap(monitor.line(where: "reply", is: "state", limit: 30, pump: { pump(app) }),
                                  "step 2: state answered while the probe runs")
        XCTAssertEqual(state["item_count"], .number(3))
        let frames = display.presentedFrames
        app.behavior.command(.scrollTo(index: 2, duration: 0), now: app.now)
        _ = app.beforeWait()
        XCTAssertEqual(display.presentedFrames, frames + 1, "step 3: a frame drawn while the probe runs")
        XCTAssertTrue(app.reloader.isBusy)
        XCTAssertEqual(app.session.config.items.count, 3, "not adopted before its probe ended")

        prober.release()
        let reply = try XCTUnwrap(reloading.line(where: "reply", is: "reload", limit: 60, pump: { pump(app) }),
                                  "step 4: the reload's reply once the probe ended")
        XCTAssertEqual(reply["ok"], .bool(true))
        XCTAssertEqual(app.session.config.items.map(\.id), ["i0", "i1", "i2", "new"])
        XCTAssertFalse(prober.gaveUp, "the probe was held on the loop's thread: the loop could not answer meanwhile")
    }

    /// The same through the kiosk's own loop (`run()`): the eventfd of a finished read is watched,
    /// and the loop answers while the clip is held. A client thread talks to the kiosk and stops
    /// its loop through an eventfd when done.
    func testTheRunningLoopAnswersDuringTheProbeAndThenAdopts() throws {
        try write(head + titled)
        let prober = HeldProber()
        let display = HeadlessDisplay(width: 320, height: 240)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.loadForRun(path: path, media: prober.checks), display: display,
                               inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"), exitAfter: 120,
                               notifier: nil, media: prober.checks)
        let done = try EventFD()
        try app.reactor.watch(done.fd) { [unowned app] in app.reactor.stop() }
        try write(head + titled + clipItem("new"))
        let reloading = try KioskControlClient(path: socket), monitor = try KioskControlClient(path: socket)
        final class Seen: @unchecked Sendable { var entered = false, state: [String: JSONValue]?, reply: [String: JSONValue]? }
        let seen = Seen()
        let client = Thread {
            defer { done.signal() }
            reloading.send(#"{"cmd":"reload","id":"r"}"#)
            seen.entered = prober.entered.wait(timeout: .now() + 60) == .success
            guard seen.entered else { return }
            monitor.send(#"{"cmd":"state"}"#)
            seen.state = monitor.line(where: "reply", is: "state", limit: 60, pump: {})
            prober.release()
            seen.reply = reloading.line(where: "reply", is: "reload", limit: 60, pump: {})
        }
        client.start()
        XCTAssertEqual(try app.run(), 0)
        XCTAssertTrue(seen.entered, "step 1: the new clip was probed within 60 s")
        XCTAssertEqual(seen.state?["item_count"], .number(3), "step 2: state answered by the loop while the clip was held")
        XCTAssertEqual(seen.reply?["ok"], .bool(true), "step 3: the reload's reply after the probe")
        XCTAssertEqual(app.session.config.items.map(\.id), ["i0", "i1", "i2", "new"])
        XCTAssertFalse(prober.gaveUp, "the probe was held on the loop's thread")
    }

    func testARefusedClipOnReloadGivesCheckConfigsProblems() throws {
        try write(head + titled)
        let (app, _) = try makeApp(media: MediaFileCheck.kiosk)
        let client = try KioskControlClient(path: socket)
        // A PNG renamed clip.mp4, named as a video.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: repository.path + "/config/media/08-ocean-waves.png", toPath: folder + "/clip.mp4")
        try write(head + titled + "[[item]]\nid = \"v\"\nvideo = \"clip.mp4\"\n")

        let check = try ProductBinary.run(["check-config", path])
        XCTAssertEqual(check.status, 1)
        let expected = check.output.split(separator: "\n").map { JSONValue.string(String($0)) }
        XCTAssertEqual(expected.count, 1, check.output)

        client.send(#"{"cmd":"reload"}"#)
        let reply = try XCTUnwrap(client.line(where: "reply", is: "reload", limit: 60, pump: { pump(app) }), "step 1: the reply")
        XCTAssertEqual(reply["ok"], .bool(false))
        XCTAssertEqual(reply["problems"], .array(expected), "the reload's problems are check-config's")
        let event = try XCTUnwrap(client.line(where: "event", is: "reloaded", limit: 60, pump: { pump(app) }), "step 2: the event")
        XCTAssertEqual(event["problems"], .array(expected))
        XCTAssertEqual(app.session.config.items.count, 3, "the running configuration is kept")
    }

    func testTwoReloadsDuringOneProbeEndWithTheNewestFile() throws {
        try write(head + titled)
        let prober = HeldProber()
        let (app, _) = try makeApp(media: prober.checks)
        let generation = app.behavior.configGeneration
        var answers: [Bool] = []

        try write(head + titled + clipItem("second"))
        app.requestReload(reason: "first") { answers.append($0) }
        XCTAssertEqual(prober.entered.wait(timeout: .now() + 60), .success, "step 1: the first file's clip is being probed")
        try write(head + clipItem("third"))
        app.requestReload(reason: "second") { answers.append($0) }
        try write(head + clipItem("fourth") + titled)
        app.requestReload(reason: "third") { answers.append($0) }
        XCTAssertEqual(app.session.config.items.count, 3, "nothing adopted while the probe runs")

        prober.release()
        app.finishPendingReloads()
        XCTAssertEqual(app.session.config.items.map(\.id), ["fourth", "i0", "i1", "i2"], "the newest file")
        XCTAssertEqual(answers, [true, true, true], "every request heard the outcome")
        XCTAssertEqual(app.behavior.configGeneration, generation + 1, "one file adopted, not a stale one first")
        XCTAssertEqual(app.behavior.log.lines.filter { $0.contains("\"reloaded\"") }.count, 1)
        XCTAssertEqual(prober.probed, ["second.mp4", "fourth.mp4"], "the stale read was not applied; the newest was read again")
        XCTAssertFalse(prober.gaveUp)
    }
}
