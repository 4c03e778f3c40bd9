import CarouselCore
import Display
import Foundation
import Input
import KioskConfig
import LinuxSystem
import TestSupport
import XCTest
@testable import Kiosk

/// The input devices open on a thread of their own after the first frame (`InputOpening`): the
/// loop goes on meanwhile (a cold Raspberry Pi's libinput start held it long enough for systemd's
/// watchdog to kill the kiosk, docs/start-up.md stop 61), and the devices that arrive are told
/// what happened while they opened.
final class InputOpeningTests: XCTestCase {
    /// A device that records what the kiosk told it (from any thread).
    final class RecordingSource: InputSource, @unchecked Sendable {
        private let lock = NSLock()
        private var heard: [String] = []
        var calls: [String] { lock.lock(); defer { lock.unlock() }; return heard }
        private func note(_ s: String) { lock.lock(); heard.append(s); lock.unlock() }
        var pollDescriptors: [Int32] { [] }
        func readTimed(fd: Int32) -> [TimedInputEvent] { [] }
        func suspend() { note("suspend") }
        func resume() { note("resume") }
        func screenChanged(width: Int, height: Int) { note("screen \(width)x\(height)") }
        func close() { note("close") }
        var deviceCount: Int { 1 }
    }

    /// An opening the test lets finish (`release`), as a slow libinput start would.
    final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let source = RecordingSource()
        func open() -> [InputSource] {
            entered.signal()
            _ = released.wait(timeout: .now() + 10)  // bounded: an opening on the loop fails the test, never hangs it
            return [source]
        }
        func release() { released.signal() }
    }

    private func kiosk(_ gate: Gate, log: LogCapture, reopen: ((KioskConfiguration) -> [InputSource])? = nil) throws -> KioskApp {
        var config = KioskConfiguration()
        config.items = (0..<3).map { ItemConfig(id: "i\($0)", title: "Item \($0)") }
        let app = try KioskApp(configPath: "/nonexistent/kiosk.toml", config: config,
                               display: HeadlessDisplay(width: 320, height: 200), inputs: [],
                               openInputs: gate.open, log: try EventLog(path: nil), logger: log.logger)
        app.reopenInputs = reopen
        return app
    }

    func testTheLoopGoesOnWhileTheDevicesOpenAndTakesThemWhenTheyAre() throws {
        let gate = Gate(), log = LogCapture()
        let app = try kiosk(gate, log: log)
        app.beforeWait()
        XCTAssertEqual(app.framesPresented, 1)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 30), .success, "the opening started after the first frame")
        XCTAssertTrue(app.inputsOpening)
        // The opening hangs; the loop's passes still run (and would ping the watchdog).
        app.session.requestFullFrame()
        app.beforeWait()
        XCTAssertEqual(app.framesPresented, 2, "a frame drawn while the devices open")
        XCTAssertEqual(app.health?.inputDevices, 0)

        gate.release()
        XCTAssertTrue(app.awaitInputOpening())
        XCTAssertFalse(app.inputsOpening)
        XCTAssertEqual(app.health?.inputDevices, 1, "the devices joined the loop")
        XCTAssertEqual(gate.source.calls, ["screen 320x200"], "told the screen's size when they joined")
        let line = try XCTUnwrap(log.messages(.info).first { $0.hasPrefix("input: ") })
        XCTAssertNotNil(line.range(of: #"^input: 1 source\(s\) opened [0-9]+\.[0-9]{2} s, after the first frame \(on their own thread; the loop went on\)$"#,
                                   options: .regularExpression), line)
    }

    /// A foreground program took the devices while they opened: those that arrive are suspended
    /// with the rest, and resumed with them.
    func testDevicesArrivingWhileAProgramHasTheInputAreSuspended() throws {
        let gate = Gate(), log = LogCapture()
        let app = try kiosk(gate, log: log)
        app.beforeWait()
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 30), .success)
        let devices = app.component(InputDevicesComponent.self)
        devices.suspend()
        gate.release()
        XCTAssertTrue(app.awaitInputOpening())
        XCTAssertEqual(gate.source.calls, ["screen 320x200", "suspend"])
        devices.resume()
        XCTAssertEqual(gate.source.calls.last, "resume")
    }

    /// The fixed configuration replaced the problem card while the first devices opened: those
    /// are closed when they arrive, never added, and the new ones are.
    func testDevicesOpenedForAReplacedConfigurationAreClosed() throws {
        let gate = Gate(), log = LogCapture()
        let replacement = RecordingSource()
        let app = try kiosk(gate, log: log, reopen: { _ in [replacement] })
        app.beforeWait()
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 30), .success)
        let fd = try XCTUnwrap(app.component(InputDevicesComponent.self).openingDescriptor)
        app.component(InputDevicesComponent.self).reopenFor(KioskConfiguration())
        XCTAssertFalse(app.inputsOpening)
        XCTAssertEqual(app.health?.inputDevices, 1, "the replacement only")
        gate.release()
        let deadline = Date().addingTimeInterval(30)
        while !gate.source.calls.contains("close") && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(gate.source.calls, ["close"], "closed by the opening's thread, never told anything else")
        XCTAssertFalse(waitReadable(fd, timeout: 0.05), "the loop is not woken for them")
        XCTAssertEqual(app.health?.inputDevices, 1)
    }

    /// A stop while the devices open waits `stopWaitLimit` at most: devices that come in time are
    /// closed with the rest; a thread still opening after it closes what it opens itself.
    func testAStopWhileTheDevicesOpenClosesThemWhenTheyCome() throws {
        let gate = Gate(), log = LogCapture()
        let app = try kiosk(gate, log: log)
        app.beforeWait()
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 30), .success)
        let began = Date()
        app.component(InputDevicesComponent.self).stop(now: app.now)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(began), InputDevicesComponent.stopWaitLimit - 0.05, "waited for them")
        XCTAssertTrue(log.messages(.notice).contains { $0.hasPrefix("input: stopping while the devices are still opening (after ") }, "\(log.lines)")
        gate.release()
        let deadline = Date().addingTimeInterval(30)
        while !gate.source.calls.contains("close") && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(gate.source.calls, ["close"])

        let quick = Gate(), quickLog = LogCapture()
        let other = try kiosk(quick, log: quickLog)
        other.beforeWait()
        XCTAssertEqual(quick.entered.wait(timeout: .now() + 30), .success)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { quick.release() }
        other.component(InputDevicesComponent.self).stop(now: other.now)
        XCTAssertEqual(quick.source.calls, ["screen 320x200", "close"], "taken, then closed with the rest")
    }
}
