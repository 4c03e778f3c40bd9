import Foundation
import KioskConfig
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// A content bundle from a server (issue 29 §2, issue 32 §2): a stick's `kiosk-carousel/` folder
/// as a tar in a CMS signature. Its signature is checked before anything is unpacked; one signed
/// by another key, a changed one and an unsigned one are refused in words; one that unpacks is
/// taken as a stick's folder (the same checks and generations); names that climb out stay in.
final class ContentBundleTests: XCTestCase {
    var scratch: ScratchFolder!
    var folder: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchFolder("ContentBundleTests")
        for name in ["trusted", "stranger"] {
            try sh("/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=\(name)",
                   "-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).pem")
        }
        try FileManager.default.createDirectory(atPath: folder + "/src/kiosk-carousel", withIntermediateDirectories: true)
        try "[[item]]\nid = \"s1\"\ntitle = \"From the server\"\n[[item]]\nid = \"s2\"\ntitle = \"Two\"\n"
            .write(toFile: folder + "/src/kiosk-carousel/config.toml", atomically: true, encoding: .utf8)
        try sh("/bin/tar", "--create", "--file", folder + "/content.tar", "--directory", folder + "/src", "kiosk-carousel")
    }

    override func tearDown() { scratch?.remove() }

    @discardableResult
    func sh(_ argv: String...) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Signs `tar` with `signer`'s key into `out` (as docs/updates.md says to).
    func sign(_ tar: String, by signer: String, to out: String) throws {
        XCTAssertEqual(try sh("/usr/bin/openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", tar,
                              "-signer", "\(folder)/\(signer).pem", "-inkey", "\(folder)/\(signer).key", "-out", out), 0)
    }

    var bundle: ContentBundle {
        var b = ContentBundle()
        b.keyring = folder + "/trusted.pem"
        return b
    }

    func testASignedBundleUnpacksAndOthersAreRefusedInWords() throws {
        try sign(folder + "/content.tar", by: "trusted", to: folder + "/good.kcb")
        try bundle.verifyAndUnpack(folder + "/good.kcb", into: folder + "/out")
        XCTAssertEqual(try String(contentsOfFile: folder + "/out/kiosk-carousel/config.toml", encoding: .utf8).prefix(8), "[[item]]")

        try sign(folder + "/content.tar", by: "stranger", to: folder + "/stranger.kcb")
        var good = try Data(contentsOf: URL(fileURLWithPath: folder + "/good.kcb"))
        let at = try XCTUnwrap(good.range(of: Data("From the server".utf8))).lowerBound
        good[at] ^= 0x20
        try good.write(to: URL(fileURLWithPath: folder + "/changed.kcb"))
        let cases = [("stranger.kcb", "signed by a key this kiosk does not trust"),
                     ("changed.kcb", "changed after it was signed (damaged or tampered with)"),
                     ("content.tar", "not a signed content bundle (unsigned, or not a bundle)")]
        for (name, words) in cases {
            let into = folder + "/out-\(name)"
            XCTAssertThrowsError(try bundle.verifyAndUnpack(folder + "/" + name, into: into), name) { e in
                XCTAssertEqual("\(e)", words, name)
            }
            XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: into)) ?? [], [], "\(name): nothing unpacked")
        }
    }

    func testNamesThatClimbOutStayIn() throws {
        let script = """
            import io, sys, tarfile
            t = tarfile.open(sys.argv[1], "w")
            for name in ["../evil.txt", "/abs-evil.txt", "kiosk-carousel/../../evil2.txt"]:
                data = b"evil"
                info = tarfile.TarInfo(name); info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            link = tarfile.TarInfo("kiosk-carousel/link"); link.type = tarfile.SYMTYPE; link.linkname = "/etc"
            t.addfile(link)
            data = b"through the link"
            info = tarfile.TarInfo("kiosk-carousel/link/evil3.txt"); info.size = len(data)
            t.addfile(info, io.BytesIO(data))
            t.close()
            """
        try script.write(toFile: folder + "/mk.py", atomically: true, encoding: .utf8)
        XCTAssertEqual(try sh("/usr/bin/env", "python3", folder + "/mk.py", folder + "/evil.tar"), 0)
        try sign(folder + "/evil.tar", by: "trusted", to: folder + "/evil.kcb")
        try FileManager.default.createDirectory(atPath: folder + "/deep/er", withIntermediateDirectories: true)
        _ = try? bundle.verifyAndUnpack(folder + "/evil.kcb", into: folder + "/deep/er/out")
        for outside in [folder + "/deep/evil.txt", folder + "/deep/er/evil.txt", folder + "/deep/evil2.txt", "/abs-evil.txt", "/etc/evil3.txt"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: outside), "\(outside) written")
        }
    }

    /// Fetched from the loopback server and taken as a stick's folder would be: a new
    /// generation, current, with the import status naming the URL.
    func testFetchedAndImportedAsAStick() throws {
        try sign(folder + "/content.tar", by: "trusted", to: folder + "/good.kcb")
        let server = try MisbehavingServer(body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/good.kcb"))))
        defer { server.stop() }
        var machine = KioskConfiguration()
        machine.usb.content = folder + "/content"
        machine.contentSource.url = server.url("/lobby.kcb")
        let status = bundle.fetchAndImport(server.url("/lobby.kcb"), machine: machine, paths: UpdatePaths(folder: folder + "/update"),
                                           downloader: Downloader(), logger: Logger(label: "test"))
        XCTAssertEqual(status?.state, .done, "\(String(describing: status))")
        XCTAssertEqual(status?.device, server.url("/lobby.kcb"))
        let current = try XCTUnwrap(ImportedContent.currentFile(in: machine.usb.content))
        let applied = ImportedContent.applyCurrent(to: machine)
        XCTAssertEqual(applied.items.map(\.id), ["s1", "s2"], "the kiosk uses it ([content] url alone, no [usb] import)")
        XCTAssertEqual(applied.importedContent, current)
        XCTAssertNil(bundle.fetchAndImport(server.url("/lobby.kcb"), machine: machine, paths: UpdatePaths(folder: folder + "/update"),
                                           downloader: Downloader(), logger: Logger(label: "test")), "unchanged: not fetched again")
        XCTAssertEqual(server.requests.filter { $0.hasPrefix("GET") }.count, 1)
    }

    /// Signed by another key and fetched from the loopback server (issue 32 §2): refused before
    /// anything is unpacked (`tar` is never run), nothing made current.
    func testABundleFromTheServerSignedByAnotherKeyIsNeverUnpacked() throws {
        try sign(folder + "/content.tar", by: "stranger", to: folder + "/stranger.kcb")
        let server = try MisbehavingServer(body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/stranger.kcb"))))
        defer { server.stop() }
        var machine = KioskConfiguration()
        machine.usb.content = folder + "/content"
        var watched = bundle
        watched.tar = folder + "/tar-was-run"
        try "#!/bin/sh\ntouch \(folder)/tar-ran\nexit 1\n".write(toFile: watched.tar, atomically: true, encoding: .utf8)
        chmod(watched.tar, 0o755)
        let status = watched.fetchAndImport(server.url("/lobby.kcb"), machine: machine, paths: UpdatePaths(folder: folder + "/update"),
                                            downloader: Downloader(), logger: Logger(label: "test"))
        XCTAssertEqual(status?.state, .failed)
        XCTAssertEqual(status?.problems, ["The content bundle was refused: signed by a key this kiosk does not trust."])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/tar-ran"), "tar was run on an untrusted bundle")
        XCTAssertNil(ImportedContent.currentFile(in: machine.usb.content))
    }
}
