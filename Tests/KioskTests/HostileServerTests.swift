import Foundation
import XCTest
@testable import Kiosk

/// The updater's downloads against a server that misbehaves on purpose (issue 32 §2;
/// docs/security.md, "The network"): every misbehaviour ends in a refusal that says which bound
/// ended it, within the configured time (low-speed 2 s, connect 2 s here) and long before the
/// server's own misbehaviour (60 s or more) would have ended by itself. Each case prints
/// `hostile-server: CASE: refused after S s: MESSAGE`, the figures docs/security.md quotes.
final class HostileServerTests: XCTestCase {
    var server: MisbehavingServer!
    var folder: String!

    /// The limits of these tests: short, so that a case that waits for one is quick.
    static var limits: Downloader.Limits {
        var limits = Downloader.Limits()
        limits.lowSpeedSeconds = 2
        limits.connectSeconds = 2
        limits.maxSeconds = 30
        limits.maxBytes = 64 << 20
        return limits
    }

    /// How long the server's slowest misbehaviour lasts by itself (its sleeps and trickles):
    /// a case that took this long was not ended by the kiosk's bound.
    static let serverMisbehavesFor = 60.0

    override func setUpWithError() throws {
        server = try MisbehavingServer()
        folder = NSTemporaryDirectory() + "hostile-\(UUID().uuidString)"
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// HEAD then GET of `url`, as the updater does.
    func fetch(_ url: String, with downloader: Downloader = Downloader(limits: HostileServerTests.limits)) throws -> String {
        try downloader.fetch(url, remote: try downloader.remote(url), into: folder, name: "b.raucb")
    }

    /// Runs `attempt`, which must fail; returns its message and how long it took, and prints both.
    @discardableResult
    func refusal(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ attempt: () throws -> Any) -> (String, Double) {
        let started = Date()
        var message = "(not refused)"
        do {
            _ = try attempt()
            XCTFail("\(name): was not refused", file: file, line: line)
        } catch {
            message = "\(error)"
        }
        let took = Date().timeIntervalSince(started)
        print("hostile-server: \(name): refused after \(String(format: "%.1f", took)) s: \(message)")
        return (message, took)
    }

    /// The bound a timing case waits for: it took at least `bound` (the bound ended it, not
    /// something sooner) and less than the server's misbehaviour lasts.
    func assertEndedBy(_ bound: Double, _ took: Double, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(took, bound - 0.5, "\(name): ended after \(took) s, before its bound (\(bound) s)", file: file, line: line)
        XCTAssertLessThan(took, Self.serverMisbehavesFor, "\(name): ran \(took) s, as long as the server liked", file: file, line: line)
    }

    // MARK: - Servers that hold the kiosk

    /// Headers trickled a byte every 0.5 s (slowloris from the server's side): left after the
    /// low-speed time, at the HEAD and at the GET.
    func testTrickledHeadersAreLeftAfterTheLowSpeedTime() {
        let url = server.url("/slowloris.raucb")
        let downloader = Downloader(limits: Self.limits)
        let (head, headTook) = refusal("slowloris (HEAD)") { try downloader.remote(url) }
        XCTAssertTrue(head.contains("too slow (below 1024 bytes a second for 2 s"), head)
        assertEndedBy(2, headTook, "slowloris (HEAD)")
        let (get, getTook) = refusal("slowloris (GET)") {
            try downloader.fetch(url, remote: Downloader.Remote(etag: "\"v1\"", size: 1000), into: self.folder, name: "b.raucb")
        }
        XCTAssertTrue(get.contains("too slow (below 1024 bytes a second for 2 s"), get)
        assertEndedBy(2, getTook, "slowloris (GET)")
    }

    /// A server that accepts the connection and then says nothing, or sends 100 bytes and stalls,
    /// or trickles 10 bytes a second.
    func testSilentStallingAndTricklingServersAreLeftAfterTheLowSpeedTime() {
        for path in ["/silent.raucb", "/stall.raucb", "/trickle.raucb"] {
            let (message, took) = refusal(path) { try self.fetch(self.server.url(path)) }
            XCTAssertTrue(message.contains("too slow (below 1024 bytes a second for 2 s"), "\(path): \(message)")
            assertEndedBy(2, took, path)
        }
    }

    /// A host that never accepts the connection (its SYN dropped): left after the connect timeout.
    func testANeverAcceptedConnectionIsLeftAfterTheConnectTimeout() {
        let (message, took) = refusal("connection never accepted") { try self.fetch("http://127.0.0.1:\(self.server.silentPort)/b.raucb") }
        XCTAssertTrue(message.contains("did not accept the connection within 2 s"), message)
        assertEndedBy(2, took, "connection never accepted")
    }

    /// Bytes at a steady 8 KiB a second (above the low-speed limit) for longer than a download
    /// may take: cut at the total time, and the part kept to resume.
    func testATransferLongerThanTheMostItMayTakeIsCut() throws {
        var limits = Self.limits
        limits.maxSeconds = 4
        let (message, took) = refusal("steady but too long") { try self.fetch(self.server.url("/steady.raucb"), with: Downloader(limits: limits)) }
        XCTAssertTrue(message.contains("took longer than the most it may, 4 s"), message)
        XCTAssertTrue(message.contains("the next check resumes it"), message)
        assertEndedBy(4, took, "steady but too long")
        let kept = try XCTUnwrap(Downloader.size(of: folder + "/b.raucb.part"))
        XCTAssertGreaterThan(kept, 0)
        XCTAssertLessThan(kept, Int64(MisbehavingServer.body.count))
    }

    // MARK: - Sizes

    func testSizesAreBoundedBeforeAndWhileTheBodyComes() {
        let cases: [(String, String, String)] = [
            // HEAD announces 10 GiB: refused before any GET.
            ("announced too large", "/huge.raucb", "larger than an update may be (67108864 bytes)"),
            // HEAD says 2000, the GET's body ends at 1000.
            ("shorter than announced", "/liar.raucb", "the download has 1000 bytes, the server said 2000"),
            // HEAD says 1000, the GET announces and sends 5000 (at once: whether curl has ended
            // before the watch on the part sees more than 1000 bytes depends on the machine's
            // load, so either refusal is right; the part must go either way).
            ("longer than announced", "/long.raucb", "the download has 5000 bytes, the server said 1000|the server sent more than 1000 bytes"),
            // HEAD says 1000, the GET has no length and never ends.
            ("endless after a length", "/endless.raucb", "the server sent more than 1000 bytes, more than it said the file has"),
            // Neither says a length and the body never ends: cut at the cap.
            ("endless, no length", "/unannounced-endless.raucb", "the server sent more than 67108864 bytes, more than an update may be"),
        ]
        for (name, path, words) in cases {
            let (message, _) = refusal(name) { try self.fetch(self.server.url(path)) }
            XCTAssertTrue(words.split(separator: "|").contains { message.contains($0) }, "\(name): \(message)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/b.raucb"), name)
            if name != "shorter than announced" {   // a short part is kept to resume; a wrong one is not
                XCTAssertNil(Downloader.size(of: folder + "/b.raucb.part"), "\(name): the part was kept")
            }
        }
        XCTAssertFalse(server.requests.contains("GET /huge.raucb -"), "a file announced too large is not asked for")
    }

    /// Headers that never end (300 KiB and more): curl's own cap on headers ends it.
    func testEndlessHeadersAreCut() {
        let (message, took) = refusal("endless headers") { try self.fetch(self.server.url("/headerflood.raucb")) }
        XCTAssertTrue(message.contains("Too large response headers"), message)
        XCTAssertLessThan(took, Self.serverMisbehavesFor)
    }

    // MARK: - Redirects

    func testRedirectsAreBoundedAndStayOnTheirScheme() {
        let (loop, _) = refusal("redirect loop") { try self.fetch(self.server.url("/loop")) }
        XCTAssertTrue(loop.contains("too many redirects"), loop)
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("HEAD /loop") }.count, 6, "the first request and 5 redirects")

        let (toFile, _) = refusal("redirect to file://") { try self.fetch(self.server.url("/tofile")) }
        XCTAssertTrue(toFile.contains("protocol, or a redirect's, is not allowed"), toFile)
        XCTAssertTrue(toFile.contains("file"), toFile)

        // From https (pinned, so that TLS passes) to http: the TLS check would be lost.
        let pinned = Downloader(limits: Self.limits, pinnedCA: server.caFile)
        let (down, _) = refusal("redirect from https to http") { try self.fetch(self.server.tlsURL("/tohttp"), with: pinned) }
        XCTAssertTrue(down.contains("protocol, or a redirect's, is not allowed"), down)
        XCTAssertFalse(server.requests.contains { $0.contains("/good.raucb") }, "the http URL was asked for: \(server.requests)")
    }

    // MARK: - TLS

    /// The test CA is not in the system's store: refused without the pin, fetched with it;
    /// another name, a self-signed certificate, another CA and plain http are refused with it.
    func testTLSIsCheckedAgainstTheSystemStoreOrThePinnedCA() throws {
        let system = Downloader(limits: Self.limits)
        let (unknown, _) = refusal("CA not in the system store") { try self.fetch(self.server.tlsURL("/good.raucb"), with: system) }
        XCTAssertTrue(unknown.contains("TLS certificate or connection cannot be trusted"), unknown)

        let pinned = Downloader(limits: Self.limits, pinnedCA: server.caFile)
        let file = try fetch(server.tlsURL("/good.raucb"), with: pinned)
        XCTAssertEqual(FileManager.default.contents(atPath: file).map([UInt8].init), MisbehavingServer.body, "pinned: fetched whole")
        unlink(file)

        let cases: [(String, String, Downloader, String)] = [
            ("certificate for another name", server.tlsURL("/good.raucb", port: server.wrongNamePort), pinned, "127.0.0.1"),
            ("self-signed certificate", server.tlsURL("/good.raucb", port: server.selfSignedPort), pinned, "self-signed"),
            ("signed by another CA than the pinned one", server.tlsURL("/good.raucb"),
             Downloader(limits: Self.limits, pinnedCA: server.otherCAFile), "unable to get local issuer"),
        ]
        for (name, url, downloader, curlSays) in cases {
            let (message, _) = refusal(name) { try self.fetch(url, with: downloader) }
            XCTAssertTrue(message.contains("TLS certificate or connection cannot be trusted"), "\(name): \(message)")
            XCTAssertTrue(message.contains(curlSays), "\(name): \(message)")
        }
        let (plain, _) = refusal("http with a pinned CA") { try self.fetch(self.server.url("/good.raucb"), with: pinned) }
        XCTAssertTrue(plain.contains("protocol, or a redirect's, is not allowed"), plain)
        let (unreadable, _) = refusal("pinned CA unreadable") {
            try self.fetch(self.server.tlsURL("/good.raucb"), with: Downloader(limits: Self.limits, pinnedCA: self.folder + "/none.pem"))
        }
        XCTAssertTrue(unreadable.contains("the pinned CA file \(folder!)/none.pem ([update] ca) cannot be read"), unreadable)
    }

    /// `--cacert` alone keeps Debian's `/etc/ssl/certs` (curl's compiled-in CA path) trusted: a
    /// pinned CA replaces that folder too, with an empty one, removed afterwards.
    func testAPinnedCAReplacesTheSystemsCertificateFolder() throws {
        let pinned = Downloader(limits: Self.limits, pinnedCA: "/k/ca.pem")
        let options = pinned.common(for: "https://h/b", emptyFolder: "/tmp/empty")
        let capath = try XCTUnwrap(options.firstIndex(of: "--capath"))
        XCTAssertEqual(options[capath + 1], "/tmp/empty")
        XCTAssertEqual(options[try XCTUnwrap(options.firstIndex(of: "--cacert")) + 1], "/k/ca.pem")
        let leftBefore = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("kiosk-no-ca-") }
        _ = try fetch(server.tlsURL("/good.raucb"), with: Downloader(limits: Self.limits, pinnedCA: server.caFile))
        let leftAfter = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("kiosk-no-ca-") }
        XCTAssertEqual(leftAfter.count, leftBefore.count, "the empty certificate folders are removed")
    }
}
