import Foundation
import KioskConfig
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// `make content-bundle` (scripts/make-content-bundle.sh, docs/updates.md): a bundle the script
/// makes is taken by the kiosk's own code (`ContentBundle.fetchAndImport` from a loopback server,
/// as `update check` does); the same bundle changed, or signed by another development key, is
/// refused; a folder the program's own check refuses is refused by the script with its reasons,
/// and nothing is written.
final class MakeContentBundleTests: XCTestCase {
    var scratch: ScratchFolder!
    var folder: String { scratch.path }
    let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let picture = "01-mountain-dawn.jpg"

    override func setUpWithError() throws {
        scratch = try ScratchFolder("MakeContentBundleTests")
        try FileManager.default.createDirectory(atPath: folder + "/lobby/media", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/config/media/" + picture, toPath: folder + "/lobby/media/" + picture)
        try scratch.write("lobby/config.toml", """
            [[item]]
            id = "welcome"
            title = "Made by the script"
            image = "media/\(picture)"
            [[item]]
            id = "hours"
            title = "Opening hours"
            """)
    }

    override func tearDown() { scratch?.remove() }

    /// Runs the script with `variables` (and the test's product as `KIOSK_BIN`, no key given: the
    /// development keys of `OUT`); its status and everything it printed.
    func makeBundle(_ variables: [String: String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["bash", repositoryRoot + "/scripts/make-content-bundle.sh"]
        var environment = ProcessInfo.processInfo.environment
        for key in ["UPDATE_KEY", "UPDATE_CERT", "UPDATE_KEYRING", "NAME", "VERSION", "BUNDLE", "MAX_MB", "ALLOW_EXEC"] {
            environment[key] = nil
        }
        environment["KIOSK_BIN"] = try ProductBinary.path()
        environment["TMPDIR"] = folder
        p.environment = environment.merging(variables) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, output)
    }

    func testABundleTheScriptMakesIsTakenByTheKioskAndAChangedOneIsNot() throws {
        let made = try makeBundle(["CONTENT": folder + "/lobby", "OUT": folder + "/out", "VERSION": "7"])
        XCTAssertEqual(made.status, 0, "step: make the bundle\n\(made.output)")
        let bundlePath = folder + "/out/kiosk-carousel-content-lobby-7.kcb"
        XCTAssertTrue(made.output.contains(bundlePath), made.output)
        let keyring = folder + "/out/update-keys/ca.cert.pem"
        XCTAssertTrue(FileManager.default.fileExists(atPath: keyring), "the development keys are made in OUT/update-keys")

        // Fetched, verified, unpacked and imported by the kiosk's own code.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bundlePath))
        let server = try MisbehavingServer(body: [UInt8](bytes))
        defer { server.stop() }
        var machine = KioskConfiguration()
        machine.usb.content = folder + "/content"
        machine.contentSource.url = server.url("/lobby.kcb")
        var bundle = ContentBundle()
        bundle.keyring = keyring
        let status = bundle.fetchAndImport(server.url("/lobby.kcb"), machine: machine, paths: UpdatePaths(folder: folder + "/update"),
                                           downloader: Downloader(), logger: Logger(label: "test"))
        XCTAssertEqual(status?.state, .done, "step: the kiosk takes it: \(String(describing: status))")
        XCTAssertEqual(status?.items, 2)
        let applied = ImportedContent.applyCurrent(to: machine)
        XCTAssertEqual(applied.items.map(\.id), ["welcome", "hours"])
        XCTAssertEqual(applied.items.first?.image.map { ($0 as NSString).lastPathComponent }, picture)

        // One byte of the archive changed: refused before anything is unpacked.
        var changed = bytes
        let at = try XCTUnwrap(changed.range(of: Data("Made by the script".utf8))).lowerBound
        changed[at] ^= 0x20
        try changed.write(to: URL(fileURLWithPath: folder + "/changed.kcb"))
        XCTAssertThrowsError(try bundle.verifyAndUnpack(folder + "/changed.kcb", into: folder + "/changed")) { e in
            XCTAssertEqual("\(e)", "changed after it was signed (damaged or tampered with)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/changed"), [], "nothing unpacked")

        // Another builder's development key: not trusted by this keyring.
        let other = try makeBundle(["CONTENT": folder + "/lobby", "OUT": folder + "/other", "VERSION": "7"])
        XCTAssertEqual(other.status, 0, "step: make a bundle with other keys\n\(other.output)")
        XCTAssertThrowsError(try bundle.verifyAndUnpack(folder + "/other/kiosk-carousel-content-lobby-7.kcb", into: folder + "/stranger")) { e in
            XCTAssertEqual("\(e)", "signed by a key this kiosk does not trust")
        }
    }

    func testAFolderTheKioskWouldRefuseIsRefusedWithItsReasonsAndNothingIsWritten() throws {
        try scratch.write("lobby/config.toml", """
            [carousel]
            fade_mni = 1
            [[item]]
            image = "media/missing.jpg"
            """)
        let made = try makeBundle(["CONTENT": folder + "/lobby", "OUT": folder + "/out", "NAME": "lobby", "VERSION": "8"])
        XCTAssertEqual(made.status, 1, made.output)
        XCTAssertTrue(made.output.contains("\(folder)/lobby is refused by the kiosk's own check"), made.output)
        XCTAssertTrue(made.output.contains("\(folder)/lobby/config.toml:2:1: unknown key 'fade_mni' in [carousel]; did you mean 'fade_min'?"),
                      made.output)
        XCTAssertTrue(made.output.contains("\(folder)/lobby/config.toml:4:9: 'image' file \"media/missing.jpg\""), made.output)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []
        XCTAssertEqual(written.filter { $0.hasSuffix(".kcb") || $0.hasSuffix(".part") }, [], "no bundle written")

        // Too large for the kiosk's [usb] max_mb: refused, said in the program's words.
        try scratch.write("lobby/config.toml", "[[item]]\ntitle = \"Big\"\n")
        try Data(count: 3 << 20).write(to: URL(fileURLWithPath: folder + "/lobby/media/blob.bin"))
        let big = try makeBundle(["CONTENT": folder + "/lobby", "OUT": folder + "/out", "VERSION": "9", "MAX_MB": "1"])
        XCTAssertEqual(big.status, 1, big.output)
        XCTAssertTrue(big.output.contains("more than [usb] max_mb = 1"), big.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out/kiosk-carousel-content-lobby-9.kcb"))
    }
}
