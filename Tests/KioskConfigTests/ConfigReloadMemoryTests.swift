import Foundation
import XCTest
@testable import KioskConfig

/// A kiosk reloads its configuration for months (SIGHUP, file changes, the `reload` command):
/// loading must not keep memory. TOMLKit's Swift side never frees what toml++'s C bridge hands
/// out, so the loader reads the bridge itself and frees each copy (`TOMLNode.parse`). The heap's
/// bytes per load are bounded in KioskTests' `ReloadMemoryTests` (`mallinfo2`); this is the RSS.
final class ConfigReloadMemoryTests: XCTestCase {
    /// Resident set size in bytes, from /proc/self/statm.
    private func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = Int(statm.split(separator: " ")[1]) ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func testRepeatedLoadsKeepMemoryFlat() throws {
        let path = repositoryRoot + "/config/example.toml"
        for _ in 0..<50 { _ = try ConfigLoader.load(path: path) }  // warm-up: caches, arenas
        let before = try residentBytes()
        let loads = 400
        for _ in 0..<loads { _ = try ConfigLoader.load(path: path) }
        let grown = try residentBytes() - before
        // The whole document kept per load would be ≈ 16–20 MB.
        XCTAssertLessThan(grown, 8 << 20, "\(loads) loads grew RSS by \(grown / 1024) KiB (\(grown / loads) bytes a load)")
    }

    /// The tree copied through the bridge is the document: every type, nested tables and
    /// arrays, keys in file order.
    func testTheCopiedTreeIsTheDocument() throws {
        let node = try TOMLNode.parse("a = \"x\"\nb = 3\nc = 1.5\nd = true\ne = [1, [2, \"y\"]]\nf = 1979-05-27\n[t]\nz = { k = false }\n")
        let entries = try XCTUnwrap(node.tableEntries)
        XCTAssertEqual(entries.map(\.key).sorted(), ["a", "b", "c", "d", "e", "f", "t"])
        let value = { (k: String) in entries.first { $0.key == k }!.value }
        XCTAssertEqual(value("a").string, "x")
        XCTAssertEqual(value("b").number, 3)
        XCTAssertEqual(value("c").number, 1.5)
        if case .bool(true) = value("d") {} else { XCTFail("d: \(value("d"))") }
        XCTAssertEqual(value("e").arrayElements?.count, 2)
        XCTAssertEqual(value("e").arrayElements?[1].arrayElements?[1].string, "y")
        if case .dateTime(let s) = value("f") { XCTAssertEqual(s, "1979-05-27") } else { XCTFail("f: \(value("f"))") }
        let z = try XCTUnwrap(value("t").tableEntries?.first?.value.tableEntries?.first)
        XCTAssertEqual(z.key, "k")
        XCTAssertThrowsError(try TOMLNode.parse("a = [1,\n")) { error in
            let e = error as? TOMLSyntaxError
            XCTAssertEqual(e?.line, 1, "\(error)")
            XCTAssertFalse(e?.message.isEmpty ?? true)
        }
    }
}
