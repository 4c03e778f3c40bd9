import Cards
import Foundation
import XCTest

/// `MediaProbeCache`: the kiosk's reloads read a clip again only when its file changed.
final class MediaProbeCacheTests: XCTestCase {
    func testAnUnchangedFileIsNotReadAgainAndAChangedOneIs() throws {
        let path = NSTemporaryDirectory() + "probe-cache-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "one".write(toFile: path, atomically: false, encoding: .utf8)
        let cache = MediaProbeCache()
        var reads = 0
        let check: (String) -> String? = { p in
            reads += 1
            return (try? String(contentsOfFile: p, encoding: .utf8)) == "bad" ? "not a video" : nil
        }
        XCTAssertNil(cache.problem(path: path, check: check))
        XCTAssertNil(cache.problem(path: path, check: check))
        XCTAssertEqual(reads, 1, "unchanged: the earlier answer")
        try "bad".write(toFile: path, atomically: true, encoding: .utf8)   // a new file renamed over it
        XCTAssertEqual(cache.problem(path: path, check: check), "not a video")
        XCTAssertEqual(reads, 2, "changed: read again")
        XCTAssertEqual(cache.checks, 2)
        try FileManager.default.removeItem(atPath: path)
        _ = cache.problem(path: path, check: check)
        XCTAssertEqual(reads, 3, "a file that is gone is asked about (the check says why)")
    }
}
