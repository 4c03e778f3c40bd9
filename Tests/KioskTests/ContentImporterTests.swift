import Foundation
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// `usb-import` without the mount (issue 20 §4): the stick's folder checked where it is, copied
/// whole, made current with a rename; a stick with problems, one pulled half-way, one too large
/// change nothing. (The mount, udev and a real pulled stick: Tests/vm/usb-stick.sh.)
final class ContentImporterTests: XCTestCase {
    var fixture: StickFolder!
    var folder: String { fixture.folder }
    var stick: String { fixture.stick }
    var content: String { fixture.content }
    let picture = StickFolder.picture

    override func setUpWithError() throws { fixture = try StickFolder() }

    override func tearDown() { fixture.remove() }

    func onStick(_ name: String, _ text: String) throws { try fixture.write(name, text) }

    func goodStick(items: Int = 2) throws {
        for i in 0..<items { try onStick("pictures/p\(i).svg", picture) }
        try onStick("config.toml", (0..<items).map { "[[item]]\nid = \"s\($0)\"\nimage = \"pictures/p\($0).svg\"\n" }.joined())
    }

    func importer(maxMB: Int = 4096, configure: (inout KioskConfiguration) -> Void = { _ in }) -> ContentImporter {
        fixture.importer(maxMB: maxMB, configure: configure)
    }

    var current: String? { try? FileManager.default.destinationOfSymbolicLink(atPath: content + "/current") }
    var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: content)) ?? []).sorted() }

    func testAGoodStickIsCopiedAndMadeCurrent() throws {
        try goodStick()
        try onStick(".Trashes", "junk")
        try FileManager.default.createSymbolicLink(atPath: stick + "/kiosk-carousel/link", withDestinationPath: "/etc/passwd")
        let status = try XCTUnwrap(importer().importStick(root: stick, device: "/dev/sdz1"))
        XCTAssertEqual(status.state, .done, "\(status)")
        XCTAssertEqual(status.items, 2)
        let gen = try XCTUnwrap(current)
        XCTAssertTrue(gen.hasPrefix("gen-"))
        let copied = try FileManager.default.subpathsOfDirectory(atPath: content + "/" + gen).sorted()
        XCTAssertEqual(copied, ["config.toml", "pictures", "pictures/p0.svg", "pictures/p1.svg"], "no hidden files, no links")
        XCTAssertEqual(try String(contentsOfFile: content + "/\(gen)/pictures/p1.svg", encoding: .utf8), picture)
        XCTAssertEqual(ImportStatus.read(from: content + "/status.json"), status)
        XCTAssertFalse(entries.contains { $0.hasPrefix(".incoming") })
        // The machine's config with import on now shows the stick's items.
        let machine = folder + "/machine.toml"
        try "[usb]\nimport = true\ncontent = \"\(content)\"\n[[item]]\nid = \"m\"\n".write(toFile: machine, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ConfigLoader.load(path: machine).items.map(\.id), ["s0", "s1"])
    }

    func testAStickWithProblemsChangesNothingAndNamesThemAsOnTheStick() throws {
        try goodStick()
        XCTAssertEqual(importer().importStick(root: stick, device: "a")?.state, .done)
        let before = current
        try onStick("config.toml", "[display]\nrotation = 90\n[[item]]\nid = \"x\"\nimage = \"pictures/missing.png\"\n[[item]]\nid = \"y\"\nimage = \"pictures/p0.svg\"\n")
        try onStick("pictures/p0.svg", "this is not a picture")
        let status = try XCTUnwrap(importer().importStick(root: stick, device: "b"))
        XCTAssertEqual(status.state, .failed)
        // Every problem in one pass: the picture that does not decode too, at the key naming it.
        XCTAssertEqual(status.problems.count, 3, "\(status.problems)")
        XCTAssertTrue(status.problems[0].hasPrefix("kiosk-carousel/config.toml:1:2: [display]"), status.problems[0])
        XCTAssertTrue(status.problems[1].hasPrefix("kiosk-carousel/config.toml:5:9: 'image' file \"pictures/missing.png\" (kiosk-carousel/pictures/missing.png)"),
                      status.problems[1])
        XCTAssertTrue(status.problems[2].hasPrefix("kiosk-carousel/config.toml:8:9: 'image' \"pictures/p0.svg\": "), status.problems[2])
        XCTAssertEqual(current, before)
    }

    func testAStickPulledHalfWayChangesNothingAndLeavesNoHalfCopy() throws {
        try goodStick(items: 4)
        XCTAssertEqual(importer().importStick(root: stick, device: "a")?.state, .done)
        let before = try XCTUnwrap(current)
        let pulled = importer()
        pulled.beforeCopying = { path in
            // The third file: the stick is gone (every file after it cannot be opened).
            if path.hasSuffix("p2.svg") { try? FileManager.default.removeItem(atPath: self.stick + "/kiosk-carousel/pictures") }
        }
        let status = try XCTUnwrap(pulled.importStick(root: stick, device: "b"))
        XCTAssertEqual(status.state, .failed)
        XCTAssertTrue(status.message.contains("pulled out"), status.message)
        XCTAssertEqual(status.problems, ["kiosk-carousel/pictures/p2.svg: open: No such file or directory"])
        XCTAssertEqual(current, before)
        XCTAssertEqual(entries, [".lock", before, "current", "status.json"].sorted())
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: content + "/" + before).count, 6, "the old copy whole")
    }

    func testTooLargeAndNoConfigAreRefusedAndAStickNotForTheKioskIsIgnored() throws {
        try goodStick()
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: stick + "/kiosk-carousel/film.bin"))
        let big = try XCTUnwrap(importer(maxMB: 1).importStick(root: stick, device: "a"))
        XCTAssertEqual(big.state, .failed)
        XCTAssertEqual(big.problems.count, 1, "\(big.problems)")
        XCTAssertTrue(big.problems[0].contains("more than [usb] max_mb = 1"), "\(big.problems)")
        // Too large, and the content file has a problem: both are said at once.
        try onStick("config.toml", "[[item]]\nid = \"s0\"\nimage = \"pictures/p0.svg\"\n[carousel]\nspead = 2\n")
        let bigAndWrong = try XCTUnwrap(importer(maxMB: 1).importStick(root: stick, device: "a"))
        XCTAssertEqual(bigAndWrong.problems.count, 2, "\(bigAndWrong.problems)")
        XCTAssertTrue(bigAndWrong.problems[0].contains("more than [usb] max_mb = 1"), "\(bigAndWrong.problems)")
        XCTAssertEqual(bigAndWrong.problems.last, "kiosk-carousel/config.toml:5:1: unknown key 'spead' in [carousel]")
        try FileManager.default.removeItem(atPath: stick + "/kiosk-carousel/config.toml")
        let none = try XCTUnwrap(importer().importStick(root: stick, device: "b"))
        XCTAssertEqual(none.problems, ["kiosk-carousel/config.toml: missing (docs/usb.md says what the folder needs)"])
        XCTAssertNil(current)
        // No kiosk-carousel/ folder: nothing written, nothing shown.
        try FileManager.default.removeItem(atPath: content)
        try FileManager.default.removeItem(atPath: stick + "/kiosk-carousel")
        XCTAssertNil(importer().importStick(root: stick, device: "c"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: content))
    }

    /// Issue 27 §10: paths outside the folder are said with every other problem of the stick, in
    /// one pass, each at the key that names the path.
    func testPathsOutsideTheFolderAndProgramsAreRefusedInOnePass() throws {
        try goodStick()
        try "x".write(toFile: stick + "/outside.svg", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: stick + "/elsewhere", withIntermediateDirectories: true)
        try onStick("config.toml", "[[item]]\nid = \"o\"\nimage = \"../outside.svg\"\n[[item]]\nid = \"sh\"\naction = { exec = [\"/bin/sh\"] }\n"
                        + "[items]\ndirectory = \"../elsewhere\"\n[carousel]\nspead = 2\n")
        let status = try XCTUnwrap(importer().importStick(root: stick, device: "a"))
        XCTAssertEqual(status.state, .failed)
        XCTAssertEqual(status.problems, [
            "kiosk-carousel/config.toml:3:9: 'image' \"../outside.svg\" (outside.svg) is outside the kiosk-carousel/ folder, so it would not be copied; put it in the folder",
            "kiosk-carousel/config.toml:6:1: item \"sh\" runs a program: items from a USB stick may not, unless the kiosk's config says [usb] allow_exec = true",
            "kiosk-carousel/config.toml:8:13: 'directory' \"../elsewhere\" (elsewhere) is outside the kiosk-carousel/ folder, so it would not be copied; put it in the folder",
            "kiosk-carousel/config.toml:10:1: unknown key 'spead' in [carousel]",
        ])
    }

    func testGenerationsAreKeptToTheCurrentAndThePreviousOneAndLeftoversRemoved() throws {
        try goodStick()
        var gens: [String] = []
        for n in 0..<3 {
            try FileManager.default.createDirectory(atPath: content + "/.incoming-99999", withIntermediateDirectories: true)
            var clock = 1000.0 + Double(n)
            let i = importer()
            let timed = ContentImporter(machine: i.machine, logger: i.logger, wallClock: { clock += 0.001; return clock })
            XCTAssertEqual(timed.importStick(root: stick, device: "a")?.state, .done)
            gens.append(try XCTUnwrap(current))
        }
        XCTAssertEqual(Set(gens).count, 3)
        XCTAssertEqual(entries, [".lock", gens[1], gens[2], "current", "status.json"].sorted())
    }
}
