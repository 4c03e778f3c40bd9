import Foundation
import KioskConfig
import TestSupport
import XCTest
@testable import Kiosk

/// `update check`, `update install`, `update status` and `usb-import --folder` with a bundle, as
/// root runs them (issue 29 §2), against a loopback server and a fake RAUC 1.8.
final class UpdateCommandTests: XCTestCase {
    var scratch: ScratchFolder!
    var rauc: FakeRauc!
    var server: MisbehavingServer!
    var state: String { scratch.path + "/update" }
    /// This machine's RAUC compatible, and another architecture's.
    static let compatible = "KioskCarousel-" + SystemIdentity.architecture
    static let otherArchitecture = SystemIdentity.architecture == "arm64" ? "amd64" : "arm64"

    override func setUpWithError() throws {
        scratch = try ScratchFolder("UpdateCommandTests")
        // The product binary reads the real machine: bundles for its architecture (the arm64
        // check runs these tests under qemu-user).
        rauc = try FakeRauc(folder: scratch.path + "/rauc", compatible: Self.compatible)
        // The running version off the image is the program's (0.1.0): 0.9.0 is newer.
        let text = try String(contentsOfFile: try rauc.bundle("served", version: "0.9.0"), encoding: .utf8)
        server = try MisbehavingServer(body: Array(text.utf8))
    }

    override func tearDown() {
        server?.stop()
        scratch?.remove()
    }

    func run(_ arguments: [String]) throws -> ProductBinary.Result {
        try ProductBinary.run(arguments + ["--state-dir", state, "--rauc", rauc.program])
    }

    func testACheckInstallsOnceAndDoesNotFetchTheSameBundleAgain() throws {
        let config = try scratch.write("config.toml", "[update]\nurl = \"\(server.url("/good.raucb"))\"\ncheck_every = \"1h\"\n")
        let first = try run(["update", "check", "--config", config])
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertEqual(try UpdateStatus.read(from: state + "/status.json")?.state, .installed)
        XCTAssertEqual(rauc.recorded.map { $0.components(separatedBy: " ").first ?? "" }, ["info", "install"])
        XCTAssertEqual(server.requests, ["HEAD /good.raucb -", "GET /good.raucb -"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state + "/download"), [], "the download is not kept")

        let notDue = try run(["update", "check", "--config", config])
        XCTAssertEqual(notDue.status, 0)
        XCTAssertTrue(notDue.errors.contains("the next check is due in"), notDue.errors)
        XCTAssertEqual(server.requests.count, 2, "not due: the server is not asked")

        let unchanged = try run(["update", "check", "--config", config, "--now"])
        XCTAssertEqual(unchanged.status, 0, unchanged.errors)
        XCTAssertTrue(unchanged.errors.contains("unchanged since it was installed"), unchanged.errors)
        XCTAssertEqual(server.requests.last, "HEAD /good.raucb -", "asked, not fetched again")
        XCTAssertEqual(rauc.recorded.count, 2)

        let status = try run(["update", "status"])
        XCTAssertTrue(status.output.contains("last update: installed"), "an unchanged check leaves the status as it was: \(status.output)")
        XCTAssertEqual(try PendingReboot.read(from: state + "/pending.json"), PendingReboot(version: "0.9.0", boot: SystemIdentity().bootID))
    }

    /// `[update] ca` reaches the downloader (issue 32 §2): the server whose certificate the
    /// pinned CA signed is fetched from and installed; pinned to another CA, the same server is
    /// refused, and nothing is asked of RAUC.
    func testACheckPinsTheServerToTheConfigsCA() throws {
        let url = server.tlsURL("/good.raucb")
        let other = try scratch.write("other.toml", "[update]\nurl = \"\(url)\"\nca = \"\(server.otherCAFile)\"\n")
        let refused = try run(["update", "check", "--config", other])
        XCTAssertEqual(refused.status, 1, refused.errors)
        XCTAssertTrue(try XCTUnwrap(try UpdateStatus.read(from: state + "/status.json")).message
                        .contains("TLS certificate or connection cannot be trusted"), refused.errors)
        XCTAssertEqual(rauc.recorded, [])
        let pinned = try scratch.write("config.toml", "[update]\nurl = \"\(url)\"\nca = \"\(server.caFile)\"\n")
        let installed = try run(["update", "check", "--config", pinned, "--now"])
        XCTAssertEqual(installed.status, 0, installed.errors)
        XCTAssertEqual(try UpdateStatus.read(from: state + "/status.json")?.state, .installed)
    }

    func testInstallSaysARefusalInWordsAndExits1() throws {
        let bundle = try rauc.bundle("other.raucb", compatible: "KioskCarousel-" + Self.otherArchitecture, version: "0.9.0")
        let result = try run(["update", "install", bundle])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("refused: for another architecture (\(Self.otherArchitecture), this kiosk is \(SystemIdentity.architecture))"),
                      result.errors)
        let missing = try run(["update", "install", server.url("/missing")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("not downloaded: the server answered with an error"), missing.errors)
    }

    func testNothingConfiguredOrOutsideTheWindowDoesNothing() throws {
        let none = try run(["update", "check", "--config", try scratch.write("none.toml", "")])
        XCTAssertEqual(none.status, 0)
        XCTAssertTrue(none.errors.contains("nothing to check"), none.errors)
        let check = UpdateCheck(paths: UpdatePaths(folder: state))
        var config = KioskConfiguration()
        config.update.url = "https://example.com/b.raucb"
        config.update.window = TimeWindow(from: 22 * 60, to: 6 * 60)
        config.update.checkEvery = 3600
        XCTAssertEqual(check.decide(config, now: 1000, minuteOfDay: 12 * 60), .outsideWindow(TimeWindow(from: 1320, to: 360)))
        XCTAssertEqual(check.decide(config, now: 1000, minuteOfDay: 23 * 60), .checked)
        try check.recordCheck(now: 1000)
        XCTAssertEqual(check.decide(config, now: 2000, minuteOfDay: 23 * 60), .notDue(until: 4600))
        XCTAssertEqual(check.decide(config, now: 4600, minuteOfDay: 23 * 60), .checked)
        XCTAssertEqual(check.decide(config, now: 500, minuteOfDay: 23 * 60), .checked, "a clock set back does not hold the checks")
    }

    /// A stick with `kiosk-carousel/update/*.raucb` (and no content): copied to incoming/ and
    /// installed; the copy is removed after. A refused one exits 1 with the status saying why.
    func testAStickWithABundle() throws {
        let config = try scratch.write("config.toml", "[usb]\nimport = true\ncontent = \"usb\"\n")
        let stick = scratch.path + "/stick"
        try FileManager.default.createDirectory(atPath: stick + "/kiosk-carousel/update", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try rauc.bundle("n.raucb", version: "0.9.0"),
                                         toPath: stick + "/kiosk-carousel/update/kiosk-carousel-0.9.0-amd64.raucb")
        let result = try run(["usb-import", "--config", config, "--folder", stick])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(rauc.recorded.last, "install \(state)/incoming/kiosk-carousel-0.9.0-amd64.raucb")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state + "/incoming"), [])
        let status = try XCTUnwrap(try UpdateStatus.read(from: state + "/status.json"))
        XCTAssertEqual(status.state, .installed)
        XCTAssertEqual(status.source, "\(stick) (kiosk-carousel-0.9.0-amd64.raucb)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/usb/status.json"), "no content import: nothing said about content")

        // At the stick's top, and refused.
        try FileManager.default.removeItem(atPath: stick + "/kiosk-carousel")
        try FileManager.default.copyItem(atPath: try rauc.bundle("u.raucb", version: "0.9.1", signature: "untrusted"), toPath: stick + "/u.raucb")
        let refused = try run(["usb-import", "--config", config, "--folder", stick])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try UpdateStatus.read(from: state + "/status.json")?.message,
                       "The update was refused: signed by a key this kiosk does not trust.")
    }
}
