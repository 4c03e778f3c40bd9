import Cards
import Display
import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk
@testable import KioskConfig

/// Every reload must give back what it took (issue 27 §19: the example config's `reload` kept
/// 13.8 kB each). The heap's bytes in use (`mallinfo2`, every arena) are what is kept; RSS moves
/// in pages and with the arenas, so the soak (ReliabilityTests' `ReloadSoakTests`) checks that.
final class ReloadMemoryTests: XCTestCase {
    /// The repository's root, found from this file's place.
    let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    var example: String { repositoryRoot + "/config/example.toml" }

    /// Average bytes kept per call of `body` over `count` calls, after `warmUp` calls.
    func bytesKept(warmUp: Int = 50, count: Int, _ body: () throws -> Void) rethrows -> Int {
        for _ in 0..<warmUp { try body() }
        let before = HeapTuning.bytesInUse
        for _ in 0..<count { try body() }
        let kept = (HeapTuning.bytesInUse - before) / count
        print("\(name): \(kept) bytes kept per call over \(count)")
        return kept
    }

    /// The parse itself: TOMLKit's Swift side leaks every key list and value it reads (~4.7 kB a
    /// load of the example); the loader reads toml++'s bridge itself (`TOMLNode.parse`).
    func testALoadOfTheExampleKeepsNoMemory() throws {
        let kept = try bytesKept(count: 400) { _ = try ConfigLoader.load(path: example) }
        // 112 bytes were toml++'s empty table, which the bridge cannot delete (`CTOMLShell` does).
        XCTAssertLessThan(kept, 64, "a load of the example kept \(kept) bytes")
    }

    func testARefusedParseKeepsNoMemory() {
        let text = "[carousel]\ntype = \"linear\"\nitem_size = [1,\n"
        let kept = bytesKept(count: 400) { _ = try? ConfigLoader.parse(text, file: "/broken.toml") }
        XCTAssertLessThan(kept, 64, "a refused parse kept \(kept) bytes")
    }

    /// The kiosk's whole reload (`KioskApp.reload`: parse, behaviour, session, watches, services),
    /// of the example config, applied and refused. The event log keeps its latest lines (10,000
    /// to 20,000 in a kiosk: ~130 bytes a reload until it is full); here it keeps 10.
    func testAKioskReloadKeepsNoMemory() throws {
        let folder = NSTemporaryDirectory() + "reload-memory-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.toml"
        let text = try String(contentsOfFile: example, encoding: .utf8)
            .replacingOccurrences(of: "\"media/", with: "\"\(repositoryRoot)/config/media/")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path),
                               display: HeadlessDisplay(width: 320, height: 240), inputs: [],
                               log: try EventLog(path: nil, retainedLines: 10),
                               logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), notifier: nil)  // 300 refusals
        var kept = bytesKept(count: 300) { XCTAssertTrue(app.reload(reason: "test")) }
        XCTAssertLessThan(kept, 64, "an applied reload of the example kept \(kept) bytes")
        try (text + "\n[carousel]\n").write(toFile: path, atomically: true, encoding: .utf8)
        kept = bytesKept(count: 300) { XCTAssertFalse(app.reload(reason: "test")) }
        XCTAssertLessThan(kept, 64, "a refused reload of the example kept \(kept) bytes")
    }
}
