import Foundation
import Logging
import XCTest
@testable import Kiosk

/// `update install FILE` (issue 29 §2) against a fake RAUC 1.8: a good bundle is installed and
/// the status says so at each step; an unsigned, untrusted, tampered, wrong-architecture or older
/// one is refused in words, the last three before `rauc install` is asked to write anything.
final class BundleInstallerTests: XCTestCase {
    var folder: String!
    var rauc: FakeRauc!
    var installer: BundleInstaller!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "bundle-installer-\(UUID().uuidString)"
        rauc = try FakeRauc(folder: folder + "/rauc")
        installer = BundleInstaller(paths: UpdatePaths(folder: folder + "/update"), rauc: RaucClient(program: rauc.program),
                                    identity: try fakeIdentity(in: folder + "/system"), logger: Logger(label: "test"))
        setenv("FAKE_RAUC_STATUS", folder + "/update/status.json", 1)
    }

    override func tearDown() {
        unsetenv("FAKE_RAUC_STATUS")
        try? FileManager.default.removeItem(atPath: folder)
    }

    var status: UpdateStatus? { try? UpdateStatus.read(from: installer.paths.status) }

    func testANewerBundleIsInstalledAndTheStatusSaysSoAtEachStep() throws {
        let bundle = try rauc.bundle("kiosk-carousel-0.1.2-amd64.raucb", version: "0.1.2")
        XCTAssertEqual(installer.install(bundle), .installed(version: "0.1.2"))
        XCTAssertEqual(rauc.recorded, ["info --output-format=json \(bundle)", "install \(bundle)"])
        let during = try XCTUnwrap(try UpdateStatus.read(from: rauc.folder + "/status-during-install"), "rauc install ran with a status")
        XCTAssertEqual(during.state, .installing)
        XCTAssertEqual(during.message, "Installing version 0.1.2…")
        let after = try XCTUnwrap(status)
        XCTAssertEqual(after.state, .installed)
        XCTAssertEqual(after.version, "0.1.2")
        XCTAssertEqual(after.running, "0.1.1")
        XCTAssertEqual(after.source, bundle)
        XCTAssertTrue(FileManager.default.fileExists(atPath: bundle), "a file given is not removed")
    }

    func testRefusalsAreSaidInWordsAndTheSlotIsNotWritten() throws {
        let cases: [(String, String, String, String, BundleRefusal, String)] = [
            ("unsigned", "KioskCarousel-amd64", "0.1.2", "none", .unsigned, "unsigned"),
            ("untrusted", "KioskCarousel-amd64", "0.1.2", "untrusted", .untrusted, "signed by a key this kiosk does not trust"),
            ("tampered", "KioskCarousel-amd64", "0.1.2", "tampered", .tampered, "changed after it was signed (damaged or tampered with)"),
            ("arm64", "KioskCarousel-arm64", "0.1.2", "ok", .wrongArchitecture(bundle: "arm64", kiosk: "amd64"),
             "for another architecture (arm64, this kiosk is amd64)"),
            ("older", "KioskCarousel-amd64", "0.1.0", "ok", .older(bundle: "0.1.0", running: "0.1.1"), "older than the running 0.1.1 (0.1.0)"),
            ("same", "KioskCarousel-amd64", "0.1.1", "ok", .older(bundle: "0.1.1", running: "0.1.1"), "the version already running (0.1.1)"),
        ]
        for (name, compatible, version, signature, refusal, words) in cases {
            unlink(rauc.calls)
            let bundle = try rauc.bundle(name + ".raucb", compatible: compatible, version: version, signature: signature)
            XCTAssertEqual(installer.install(bundle), .refused(refusal), name)
            XCTAssertEqual(refusal.description, words, name)
            XCTAssertFalse(rauc.recorded.contains { $0.hasPrefix("install") }, "\(name): rauc install was not asked")
            XCTAssertEqual(status?.state, .failed, name)
            XCTAssertEqual(status?.message, "The update was refused: \(words).", name)
        }
    }

    /// A real RAUC bundle signed by another key, fetched from the loopback server (issue 32 §2):
    /// the real `rauc info` (RAUC 1.8, its keyring this kiosk's CA) refuses it, in the updater's
    /// words, and `rauc install` is never asked; the download is not kept.
    func testABundleFromTheServerSignedByAnotherKeyIsRefusedByRauc() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/rauc")
                          && FileManager.default.isExecutableFile(atPath: "/usr/bin/mksquashfs"),
                          "needs rauc and squashfs-tools (apt-get install rauc squashfs-tools)")
        let keys = folder + "/keys", content = folder + "/bundle-content"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
        for name in ["kiosk-ca", "stranger"] {
            try run("/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "2", "-subj", "/CN=\(name)", "-keyout", "\(keys)/\(name).key", "-out", "\(keys)/\(name).pem")
        }
        // Random: squashfs must not compress it below RAUC's smallest bundle.
        try Data((0..<65536).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: content + "/root.img"))
        try "[update]\ncompatible=KioskCarousel-amd64\nversion=0.1.2\n[bundle]\nformat=verity\n[image.rootfs]\nfilename=root.img\n"
            .write(toFile: content + "/manifest.raucm", atomically: true, encoding: .utf8)
        let bundle = folder + "/stranger.raucb"
        try run("/usr/bin/rauc", "bundle", "--cert=\(keys)/stranger.pem", "--key=\(keys)/stranger.key", content, bundle)
        // RAUC as the kiosk runs it, but with this test's keyring instead of /etc/rauc/system.conf's.
        let program = folder + "/rauc-with-test-keyring"
        try """
            #!/bin/sh
            echo "$1" >> \(folder!)/rauc-calls
            [ "$1" = info ] || exit 1
            shift
            exec /usr/bin/rauc info --keyring=\(keys)/kiosk-ca.pem "$@"
            """.write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        let server = try MisbehavingServer(body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: bundle))))
        defer { server.stop() }
        let installer = BundleInstaller(paths: UpdatePaths(folder: folder + "/update"), rauc: RaucClient(program: program),
                                        identity: try fakeIdentity(in: folder + "/system"), logger: Logger(label: "test"))
        XCTAssertEqual(installer.install(server.url("/kiosk-carousel-0.1.2-amd64.raucb")), .refused(.untrusted))
        XCTAssertEqual(try String(contentsOfFile: folder + "/rauc-calls", encoding: .utf8), "info\n", "rauc install was not asked")
        XCTAssertEqual(status?.message, "The update was refused: signed by a key this kiosk does not trust.")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: installer.paths.downloads), [], "the download is not kept")
    }

    func run(_ argv: String...) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(argv.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
    }

    /// What RAUC itself refuses at install (a system whose compatible or version the kiosk's
    /// own checks did not see) is said in the same words.
    func testRaucsOwnInstallRefusalsAreReadAsWords() throws {
        let other = try FakeRauc(folder: folder + "/rauc-arm64", compatible: "KioskCarousel-arm64", running: "0.2.0")
        let client = RaucClient(program: other.program)
        let bundle = try other.bundle("b.raucb", compatible: "KioskCarousel-amd64", version: "0.1.2")
        let info = try client.info(bundle)
        XCTAssertEqual(info, BundleInfo(compatible: "KioskCarousel-amd64", version: "0.1.2"))
        XCTAssertThrowsError(try client.install(bundle, info: info, running: "0.2.0")) { e in
            XCTAssertEqual(e as? BundleRefusal, .wrongArchitecture(bundle: "amd64", kiosk: "arm64"))
        }
        let older = try FakeRauc(folder: folder + "/rauc-newer", running: "0.2.0")
        let b2 = try older.bundle("c.raucb", version: "0.1.2")
        XCTAssertThrowsError(try RaucClient(program: older.program).install(b2, info: info, running: "0.2.0")) { e in
            XCTAssertEqual((e as? BundleRefusal)?.description, "older than the running 0.2.0 (0.1.2)")
        }
        XCTAssertEqual(RaucClient.refusal("LastError: Failed mounting bundle: No space left on device\nInstalling `x' failed",
                                          bundleVersion: "1", running: "0"),
                       .other("Failed mounting bundle: No space left on device"))
    }

    func testAMissingRaucIsSaid() throws {
        let bundle = try rauc.bundle("b.raucb", version: "0.1.2")
        let missing = BundleInstaller(paths: installer.paths, rauc: RaucClient(program: folder + "/no-rauc"),
                                      identity: installer.identity, logger: Logger(label: "test"))
        guard case .refused(.other(let said)) = missing.install(bundle) else { return XCTFail("installed") }
        XCTAssertTrue(said.contains("no-rauc cannot be run"), said)
    }

    func testVersionOrder() {
        XCTAssertEqual(VersionOrder.compare("0.1.10", "0.1.9"), 1)
        XCTAssertEqual(VersionOrder.compare("0.1.1", "0.1.1"), 0)
        XCTAssertEqual(VersionOrder.compare("0.1.0", "0.1.1"), -1)
        XCTAssertEqual(VersionOrder.compare("1.0~rc1", "1.0"), -1)
        XCTAssertEqual(VersionOrder.compare("1.0", "1.0a"), -1)
        XCTAssertEqual(VersionOrder.compare("1.0.1", "1.0"), 1)
    }

    func testIdentity() throws {
        let identity = try fakeIdentity(in: folder + "/id", version: "0.3.0", slot: "B", compatible: "KioskCarousel-arm64")
        XCTAssertEqual(identity.version, "0.3.0")
        XCTAssertEqual(identity.slot, "B")
        XCTAssertEqual(identity.compatible, "KioskCarousel-arm64")
        var off = SystemIdentity()
        off.osRelease = folder + "/none"; off.cmdline = folder + "/none"; off.raucSystemConf = folder + "/none"
        XCTAssertEqual(off.version, KioskVersion.string)
        XCTAssertEqual(off.slot, "none")
        XCTAssertEqual(off.compatible, "KioskCarousel-" + SystemIdentity.architecture)
    }

    /// A new slot's trial boot, not yet marked good (`systemd-bless-boot status`: indeterminate):
    /// nothing is installed (the other slot is the one a failed trial rolls back to); a stick's
    /// person is told on the screen, a URL is simply tried again later. After the bless (the
    /// counted entry renamed) or without boot counting (no LoaderBootCountPath) it installs.
    func testNothingIsInstalledWhileThisBootIsOnTrial() throws {
        let bundle = try rauc.bundle("kiosk-carousel-0.1.2-amd64.raucb", version: "0.1.2")
        func installerAt(blessStatus bless: String) throws -> BundleInstaller {
            BundleInstaller(paths: UpdatePaths(folder: folder + "/update"), rauc: RaucClient(program: rauc.program),
                            identity: try fakeIdentity(in: folder + "/system-\(bless)", blessStatus: bless), logger: Logger(label: "test"))
        }
        let onTrial = try installerAt(blessStatus: "indeterminate")
        XCTAssertEqual(onTrial.install(bundle, source: "/dev/sda1 (kiosk-carousel-0.1.2-amd64.raucb)"), .deferred(running: "0.1.1"))
        XCTAssertEqual(rauc.recorded, [], "RAUC not even asked")
        let said = try XCTUnwrap(status)
        XCTAssertEqual(said.state, .failed)
        XCTAssertTrue(said.message.contains("still on trial") && said.message.contains("Plug the stick in again"), said.message)
        try FileManager.default.removeItem(atPath: self.installer.paths.status)
        XCTAssertEqual(onTrial.install(bundle), .deferred(running: "0.1.1"))
        XCTAssertNil(status, "not a stick: no status for the screen, the next check tries again")
        XCTAssertFalse(FileManager.default.fileExists(atPath: self.installer.paths.pending))

        XCTAssertEqual(try installerAt(blessStatus: "good").install(bundle), .installed(version: "0.1.2"))
        let uncounted = BundleInstaller(paths: UpdatePaths(folder: folder + "/update"), rauc: RaucClient(program: rauc.program),
                                        identity: try fakeIdentity(in: folder + "/system-clean"), logger: Logger(label: "test"))
        XCTAssertEqual(uncounted.install(try rauc.bundle("kiosk-carousel-0.1.3-amd64.raucb", version: "0.1.3")), .installed(version: "0.1.3"))
    }
}
