import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// A kiosk that has run and is let go frees what it held: its reactor, timers, signalfd, inotify,
/// eventfds and sockets are closed. The components and the context that ties them must not keep
/// each other alive (a cycle would leak a dozen descriptors per kiosk made: the tests and the
/// reload soak make hundreds).
final class KioskAppLifetimeTests: XCTestCase {
    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    func testAKioskLetGoClosesEveryDescriptorItOpened() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lifetime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.toml").path
        let socket = folder.appendingPathComponent("control.sock").path
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [120, 90]\n[control]\nsocket = \"\(socket)\"\n"
        for i in 0..<3 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)

        func runOne() throws {
            let app = try KioskApp(configPath: path, config: config, display: HeadlessDisplay(width: 320, height: 240),
                                   inputs: [], log: try EventLog(path: nil), logger: Logger(label: "test"),
                                   exitAfter: 0.2, notifier: nil)
            XCTAssertEqual(try app.run(), 0)
        }
        try runOne()  // the first kiosk of the process opens what stays (logging, fontconfig)
        let before = openDescriptors()
        for _ in 0..<3 { try runOne() }
        // Worker threads of a kiosk let go may still be closing theirs: wait for it (a cycle
        // never gives them back).
        let end = Date().addingTimeInterval(30)
        while openDescriptors() > before && Date() < end { usleep(20_000) }
        // At most as many: descriptors of earlier tests' threads may close meanwhile.
        XCTAssertLessThanOrEqual(openDescriptors(), before, "three kiosks made, run and let go: no descriptor left open after 30 s")
    }
}
