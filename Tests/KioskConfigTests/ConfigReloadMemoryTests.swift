import Foundation
import XCTest
@testable import KioskConfig

/// A kiosk reloads its configuration for months (SIGHUP, file changes, the `reload` command):
/// loading must not keep memory. TOMLKit never frees a parsed document, so the loader clears it
/// once copied (`ConfigLoader.parseTOML`); before that every load of the example kept ~40–50 kB.
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
        // TOMLKit's per-read copies still leak ~3–5 kB a load (≈ 2 MB here); the whole
        // document would be ≈ 16–20 MB.
        XCTAssertLessThan(grown, 8 << 20, "\(loads) loads grew RSS by \(grown / 1024) KiB (\(grown / loads) bytes a load)")
    }
}
