import Foundation
import XCTest
@testable import Kiosk

/// The updater's downloads through curl against a misbehaving server on the loopback (issue 29
/// §2): a cut transfer is resumed with Range, a server that does not do ranges is fetched again
/// whole, a missing file and another protocol are refused. A server that misbehaves on purpose
/// (issue 32 §2) is HostileServerTests'.
final class DownloaderTests: XCTestCase {
    var server: MisbehavingServer!
    var folder: String!
    var downloader: Downloader!

    override func setUpWithError() throws {
        server = try MisbehavingServer()
        folder = NSTemporaryDirectory() + "downloads-\(UUID().uuidString)"
        var limits = Downloader.Limits()
        limits.lowSpeedSeconds = 2
        limits.connectSeconds = 5
        limits.maxBytes = 64 << 20
        downloader = Downloader(limits: limits)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func fetch(_ path: String) throws -> String {
        let url = server.url(path)
        return try downloader.fetch(url, remote: try downloader.remote(url), into: folder, name: "b.raucb")
    }

    func testAWholeFileWithItsETag() throws {
        let remote = try downloader.remote(server.url("/good.raucb"))
        XCTAssertEqual(remote, Downloader.Remote(etag: "\"v1\"", lastModified: "Sat, 28 Nov 2026 12:00:00 GMT", size: 1 << 20))
        let file = try fetch("/good.raucb")
        XCTAssertEqual(file, folder + "/b.raucb")
        XCTAssertEqual(FileManager.default.contents(atPath: file).map([UInt8].init), MisbehavingServer.body)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + ".part"))
    }

    func testACutTransferIsResumedWhereItStopped() throws {
        XCTAssertThrowsError(try fetch("/cut.raucb"), "the first transfer is cut at half") { e in
            let failure = e as? Downloader.Failure
            XCTAssertEqual(failure?.resumable, true, "\(e)")
            XCTAssertTrue(failure?.description.contains("next check resumes it") == true, "\(e)")
        }
        XCTAssertEqual(Downloader.size(of: folder + "/b.raucb.part"), Int64(1 << 19))
        let file = try fetch("/cut.raucb")
        XCTAssertEqual(FileManager.default.contents(atPath: file).map([UInt8].init), MisbehavingServer.body)
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET") }, ["GET /cut.raucb -", "GET /cut.raucb bytes=524288-"])
    }

    func testAServerWithoutRangesIsFetchedAgainWhole() throws {
        XCTAssertThrowsError(try fetch("/norange.raucb"))
        let file = try fetch("/norange.raucb")
        XCTAssertEqual(FileManager.default.contents(atPath: file).map([UInt8].init), MisbehavingServer.body)
    }

    /// The hostile cases (stalls, lengths, redirects, TLS) are HostileServerTests'.
    func testAMissingFileAndAnotherProtocolAreRefused() throws {
        XCTAssertThrowsError(try fetch("/missing")) { e in XCTAssertTrue("\(e)".contains("the server answered with an error"), "\(e)") }
        XCTAssertThrowsError(try downloader.remote("ftp://127.0.0.1:\(server.port)/good.raucb")) { e in
            XCTAssertTrue("\(e)".contains("protocol, or a redirect's, is not allowed"), "\(e)")
        }
    }
}
