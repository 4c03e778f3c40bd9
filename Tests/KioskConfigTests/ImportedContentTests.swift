import Foundation
import XCTest
@testable import KioskConfig

/// A USB stick's content file (issue 20 §4): only content tables, no programs unless allowed,
/// its tables over the machine's, and the copy `current` names loaded with the machine's file.
final class ImportedContentTests: XCTestCase {
    var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "imported-content-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func write(_ text: String, _ name: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func problems(_ body: () throws -> Void) -> [String] {
        do { try body(); return [] } catch let e as ConfigErrors { return e.diagnostics.map(\.description) } catch { return ["\(error)"] }
    }

    /// Every problem in one pass: machine tables and items that run programs (issue 27 §10) are
    /// said also when the file has other problems.
    func testMachineTablesAreRefusedAtTheirPlaceAlsoWhenTheFileHasOtherProblems() throws {
        let path = try write("[display]\nrotation = 90\n\n[[item]]\nid = \"a\"\nimage = \"gone.png\"\n\n[control]\nsocket = \"/tmp/s\"\n"
                                + "[[item]]\nid = \"shell\"\naction = { exec = [\"/bin/sh\"] }\n", "stick/config.toml")
        let found = problems { _ = try ImportedContent.load(path: path, allowExec: false) }
        XCTAssertEqual(found.count, 4, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("\(path):1:2: [display] is the machine's own setting"), found[0])
        XCTAssertTrue(found[1].hasPrefix("\(path):6:9: 'image'"), found[1])
        XCTAssertTrue(found[2].hasPrefix("\(path):8:2: [control] is the machine's own setting"), found[2])
        XCTAssertTrue(found[3].hasPrefix("\(path):12:1: item \"shell\" runs a program"), found[3])
    }

    func testAFileTomlPlusPlusWouldAbortOnIsAnErrorNotACrash() throws {
        // `[+a]` makes toml++ assert; the loader reports it, and the table check must not hand
        // the text to toml++ a second time.
        let path = try write("[display]\nrotation = 90\n[+a]\n", "hazard.toml")
        let found = problems { _ = try ImportedContent.load(path: path, allowExec: false) }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("\(path):3:"), found[0])
    }

    /// Issue 27 §13: every content table is a section of the schema (there is no `[gestures]`);
    /// the touch gesture keys come with `[carousel]`, the knob's stay the machine's.
    func testContentTablesAreSectionsAndCarouselBringsItsGestureKeys() throws {
        let sections = Set(ConfigSchema.root.children.map(\.name))
        XCTAssertEqual(ImportedContent.contentTables.subtracting(sections), [])
        let machinePath = try write("[input.rotary]\nname = \"knob\"\ndetents_per_item = 3\n[carousel]\npan_slop = 5\n[[item]]\nid = \"m\"\n", "machine.toml")
        let machine = try ConfigLoader.load(path: machinePath, importedContent: false)
        let contentPath = try write("[carousel]\npan_slop = 30\ntap_max_duration = 0.5\n[[item]]\nid = \"s\"\n", "content/config.toml")
        let content = try ImportedContent.load(path: contentPath, allowExec: false)
        let out = try ImportedContent.overlay(content.config, tables: content.tables, on: machine, contentFile: contentPath)
        XCTAssertEqual(out.gestures.panSlop, 30, "the stick's [carousel] pan_slop")
        XCTAssertEqual(out.gestures.tapMaxDuration, 0.5)
        XCTAssertEqual(out.gestures.detentsPerItem, 3, "the knob's setting is the machine's")
        // A [gestures] table is an unknown section, not a machine table.
        let gestures = try write("[gestures]\npan_slop = 3\n", "g/config.toml")
        let found = problems { _ = try ImportedContent.load(path: gestures, allowExec: false) }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found.first?.hasPrefix("\(gestures):1:2: unknown section [gestures]") == true, "\(found)")
    }

    func testItemsThatRunProgramsNeedAllowExec() throws {
        let path = try write("[[item]]\nid = \"a\"\n\n[[item]]\nid = \"shell\"\naction = { exec = [\"/bin/sh\"] }\n\n[[item]]\nid = \"e\"\naction = { emit = \"x\" }\n", "config.toml")
        let found = problems { _ = try ImportedContent.load(path: path, allowExec: false) }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("\(path):6:1: item \"shell\" runs a program"), found[0])
        XCTAssertEqual(try ImportedContent.load(path: path, allowExec: true).config.items.count, 3)
    }

    func testOverlayReplacesOnlyTheTablesTheContentHas() throws {
        let machinePath = try write("[display]\nrotation = 180\n[carousel]\ntype = \"rotary\"\n[theme]\nbackground = \"#112233\"\n[[item]]\nid = \"m\"\n", "machine.toml")
        let machine = try ConfigLoader.load(path: machinePath, importedContent: false)
        let contentPath = try write("[carousel]\ntype = \"linear\"\n[[item]]\nid = \"s1\"\n[[item]]\nid = \"s2\"\n", "content/config.toml")
        let content = try ImportedContent.load(path: contentPath, allowExec: false)
        XCTAssertEqual(content.tables, ["carousel", "item"])
        let out = try ImportedContent.overlay(content.config, tables: content.tables, on: machine, contentFile: contentPath)
        XCTAssertEqual(out.items.map(\.id), ["s1", "s2"])
        XCTAssertEqual(out.carousel, content.config.carousel, "the content's [carousel]")
        XCTAssertEqual(out.theme, machine.theme, "the machine's [theme]: the content has none")
        XCTAssertEqual(out.display.rotation, 180, "the machine's [display]")
        XCTAssertEqual(out.importedContent, contentPath)
    }

    func testOverlayRefusesContentTheMachinesScheduleOrHomeItemCannotUse() throws {
        let machinePath = try write("""
            [idle]
            home_item = "m3"
            [[item]]
            id = "m1"
            [[item]]
            id = "m2"
            [[item]]
            id = "m3"
            [[schedule]]
            days = ["mon"]
            from = "09:00"
            to = "11:00"
            items = ["m1"]
            """, "machine.toml")
        let machine = try ConfigLoader.load(path: machinePath, importedContent: false)
        let contentPath = try write("[[item]]\nid = \"s1\"\n", "content/config.toml")
        let content = try ImportedContent.load(path: contentPath, allowExec: false)
        let found = problems { _ = try ImportedContent.overlay(content.config, tables: content.tables, on: machine, contentFile: contentPath) }
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found.contains { $0.contains("[[schedule]] shows item \"m1\"") }, "\(found)")
        XCTAssertTrue(found.contains { $0.contains("[idle] home_item is item 2, but this content has 1 items") }, "\(found)")
        // With its own [[schedule]] and [idle] the same items are fine.
        let whole = try write("[idle]\nhome_item = 0\n[[item]]\nid = \"s1\"\n[[schedule]]\ndays = [\"mon\"]\nfrom = \"09:00\"\nto = \"11:00\"\n", "content2/config.toml")
        let c2 = try ImportedContent.load(path: whole, allowExec: false)
        XCTAssertEqual(try ImportedContent.overlay(c2.config, tables: c2.tables, on: machine, contentFile: whole).items.map(\.id), ["s1"])
    }

    func testLoadUsesTheCurrentCopyResolvedThroughItsLink() throws {
        let content = (folder as NSString).appendingPathComponent("usb")
        let machinePath = try write("[usb]\nimport = true\ncontent = \"usb\"\n[[item]]\nid = \"m\"\n", "machine.toml")
        XCTAssertEqual(try ConfigLoader.load(path: machinePath).items.map(\.id), ["m"], "nothing imported yet")
        _ = try write("[[item]]\nid = \"s\"\nimage = \"p.svg\"\n", "usb/gen-1/config.toml")
        _ = try write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>", "usb/gen-1/p.svg")
        try FileManager.default.createSymbolicLink(atPath: content + "/current", withDestinationPath: "gen-1")
        let loaded = try ConfigLoader.load(path: machinePath)
        XCTAssertEqual(loaded.items.map(\.id), ["s"])
        XCTAssertEqual(loaded.items[0].image, content + "/gen-1/p.svg", "the generation's own path, not current/")
        XCTAssertEqual(loaded.importedContent, content + "/gen-1/config.toml")
        XCTAssertTrue(loaded.importedContentProblems.isEmpty)
        // Off: the machine's items.
        let off = try write("[usb]\nimport = false\ncontent = \"usb\"\n[[item]]\nid = \"m\"\n", "machine-off.toml")
        XCTAssertEqual(try ConfigLoader.load(path: off).items.map(\.id), ["m"])
    }

    func testCopyThatNoLongerLoadsLeavesTheMachinesTablesAndSaysWhy() throws {
        let machinePath = try write("[usb]\nimport = true\ncontent = \"usb\"\n[[item]]\nid = \"m\"\n", "machine.toml")
        _ = try write("[[item]]\nid = \"s\"\nimage = \"deleted.png\"\n", "usb/gen-1/config.toml")
        try FileManager.default.createSymbolicLink(atPath: folder + "/usb/current", withDestinationPath: "gen-1")
        let loaded = try ConfigLoader.load(path: machinePath)
        XCTAssertEqual(loaded.items.map(\.id), ["m"])
        XCTAssertNil(loaded.importedContent)
        XCTAssertEqual(loaded.importedContentProblems.count, 1)
        XCTAssertTrue(loaded.importedContentProblems[0].message.contains("deleted.png"), "\(loaded.importedContentProblems)")
    }

    func testUSBSectionKeys() throws {
        let path = try write("[usb]\nimport = true\ncontent = \"/srv/usb\"\nmax_mb = 100\nallow_exec = true\nnotice_seconds = 3\n[[item]]\nid = \"a\"\n", "c.toml")
        let usb = try ConfigLoader.load(path: path, importedContent: false).usb
        XCTAssertEqual(usb, { var u = USBSettings(); u.importEnabled = true; u.content = "/srv/usb"; u.maxMB = 100; u.allowExec = true; u.noticeSeconds = 3; return u }())
        let bad = try write("[usb]\nmax_mb = 0\nimprt = true\n[[item]]\nid = \"a\"\n", "bad.toml")
        let found = problems { _ = try ConfigLoader.load(path: bad) }
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("\(bad):2:10: "), found[0])
        XCTAssertTrue(found[1].contains("did you mean 'import'"), found[1])
    }
}
