import Foundation
import XCTest
@testable import KioskConfig

/// `[update]` and `[content]` (issue 29 §2): what loads, what check-config says at
/// FILE:LINE:COLUMN, and that a USB stick's content file cannot have them.
final class UpdateConfigTests: XCTestCase {
    func testKeysLoad() throws {
        let c = try ConfigFixture().load("""
            [update]
            url = "https://updates.example.com/kiosk-carousel-amd64.raucb"
            check_every = "1h30m"
            window = "22:00-06:00"
            [content]
            url = "http://10.0.0.2:8080/lobby.kcb"
            """)
        XCTAssertEqual(c.update.url, "https://updates.example.com/kiosk-carousel-amd64.raucb")
        XCTAssertEqual(c.update.checkEvery, 5400)
        XCTAssertEqual(c.update.window, TimeWindow(from: 1320, to: 360))
        XCTAssertEqual(c.contentSource.url, "http://10.0.0.2:8080/lobby.kcb")
        XCTAssertTrue(c.takesImportedContent, "[content] url uses the imported content folder")
        let none = try ConfigFixture().load("")
        XCTAssertNil(none.update.url)
        XCTAssertNil(none.update.checkEvery)
        XCTAssertNil(none.update.window)
        XCTAssertFalse(none.takesImportedContent)
    }

    func testProblemsAreSaidAtTheirPlace() {
        let found = ConfigFixture().report("""
            [update]
            url = "ftp://updates.example.com/a.raucb"
            check_every = "6"
            window = "22:00-6:00"
            [content]
            url = "https://user:secret@example.com/c.kcb"
            """)
        XCTAssertEqual(found.count, 4, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("2:7: 'url' \"ftp://updates.example.com/a.raucb\" is not an https:// or http:// URL"), found[0])
        XCTAssertTrue(found[1].hasPrefix("3:15: 'check_every' \"6\" is not a duration"), found[1])
        XCTAssertTrue(found[2].hasPrefix("4:10: 'window' \"22:00-6:00\" is not a time range"), found[2])
        XCTAssertTrue(found[3].hasPrefix("6:7: 'url' \"https://user:secret@example.com/c.kcb\" has a user name or password"), found[3])
    }

    /// `[update] url` without `[control] socket`: the reboot into an installed update cannot ask
    /// whether anybody uses the kiosk, so it never happens. A warning at the `url` key, and only
    /// then: with the socket, or for `[content] url` (the kiosk watches the import's status file,
    /// no socket needed) there is none.
    func testUpdateURLWithoutControlSocketIsWarnedAtTheURL() throws {
        let fixture = ConfigFixture()
        let bare = try fixture.load("""
            [carousel]
            wrap = true

            [update]
            check_every = "1h"
              url = "https://updates.example.com/kiosk.raucb"
            """)
        XCTAssertEqual(bare.warnings, [ConfigDiagnostic(file: fixture.folder + "/config.toml", line: 6, column: 3,
                                                        message: ConfigWarnings.updateWithoutControlSocket)])
        XCTAssertTrue(bare.warnings[0].message.contains("[control] socket"))
        let withSocket = try fixture.load("""
            [update]
            url = "https://updates.example.com/kiosk.raucb"
            [control]
            socket = "/run/kiosk-carousel/control.sock"
            """)
        XCTAssertEqual(withSocket.warnings, [])
        XCTAssertEqual(try fixture.load("[content]\nurl = \"https://content.example.com/lobby.kcb\"\n").warnings, [])
        XCTAssertEqual(try fixture.load("[control]\n").warnings, [], "no [update] url: nothing to warn about")
    }

    /// `[update] ca` pins the servers' TLS (issue 32 §2): a path relative to the file's folder;
    /// one that cannot be read, and an http:// URL beside it (refused by the downloader), are
    /// warned at their keys.
    func testPinnedCALoadsAndWhatItRefusesIsWarned() throws {
        let fixture = ConfigFixture()
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: fixture.folder + "/update-ca.pem", atomically: true, encoding: .utf8)
        let pinned = try fixture.load("""
            [update]
            ca = "update-ca.pem"
            [content]
            url = "https://content.example.com/lobby.kcb"
            """)
        XCTAssertEqual(pinned.update.ca, fixture.folder + "/update-ca.pem")
        XCTAssertEqual(pinned.warnings, [])
        XCTAssertNil(try fixture.load("").update.ca, "none: the system's certificates")
        let wrong = try fixture.load("""
            [update]
            ca = "/nonexistent/ca.pem"
            [content]
            url = "http://10.0.0.2/lobby.kcb"
            """)
        XCTAssertEqual(wrong.warnings.map { "\($0.line):\($0.column)" }, ["2:1", "4:1"], "\(wrong.warnings)")
        XCTAssertTrue(wrong.warnings[0].message.hasPrefix("\"/nonexistent/ca.pem\" cannot be read (No such file or directory)"),
                      wrong.warnings[0].message)
        XCTAssertTrue(wrong.warnings[1].message.contains("this http:// URL will be refused"), wrong.warnings[1].message)
    }

    func testDurationsAndRanges() {
        XCTAssertEqual(ConfigFixture().report("[update]\ncheck_every = \"30s\"\n").first.map { String($0.prefix(60)) },
                       "2:15: 'check_every' \"30s\" is shorter than 1m, the least allo")
        XCTAssertEqual(ConfigFixture().report("[update]\nwindow = \"06:00-06:00\"\n").count, 1)
        XCTAssertEqual(ConfigFixture().report("[update]\nwindow = \"00:00-24:00\"\nurl = \"http://h/x\"\n"), [])
        XCTAssertEqual(DurationText.seconds("1d2h"), 93_600)
        XCTAssertNil(DurationText.seconds("h"))
        XCTAssertNil(DurationText.seconds("5"))
        XCTAssertNil(DurationText.seconds("5x"))
        XCTAssertEqual(DurationText.describe(seconds: 5400), "1h30m")
        let night = TimeWindow(from: 1320, to: 360)
        XCTAssertTrue(night.contains(minute: 1320))
        XCTAssertTrue(night.contains(minute: 0))
        XCTAssertTrue(night.contains(minute: 359))
        XCTAssertFalse(night.contains(minute: 360))
        XCTAssertFalse(night.contains(minute: 720))
        let day = TimeWindow(from: 540, to: 1080)
        XCTAssertTrue(day.contains(minute: 540))
        XCTAssertFalse(day.contains(minute: 1080))
        XCTAssertEqual(DownloadURL.fileName("https://h/dir/kiosk-carousel-0.1.1-amd64.raucb?x=1"), "kiosk-carousel-0.1.1-amd64.raucb")
        XCTAssertEqual(DownloadURL.fileName("https://h/"), "download")
        XCTAssertEqual(DownloadURL.fileName("https://h/../..%2F"), "download")
    }

    /// A stick's content file may not carry them: they are the machine's (docs/usb.md).
    func testAStickCannotCarryThem() throws {
        let fixture = ConfigFixture()
        let path = fixture.write("stick/config.toml", "[[item]]\nid = \"a\"\n\n[update]\nurl = \"https://evil.example.com/x.raucb\"\n[content]\nurl = \"https://evil.example.com/c\"\n")
        do {
            _ = try ImportedContent.load(path: path, allowExec: false)
            XCTFail("loaded")
        } catch let e as ConfigErrors {
            let found = e.diagnostics.map(\.description)
            XCTAssertEqual(found, ["\(path):4:2: [update] is the machine's own setting, not content: a USB stick cannot change it (set it in the kiosk's config file)",
                                   "\(path):6:2: [content] is the machine's own setting, not content: a USB stick cannot change it (set it in the kiosk's config file)"])
        }
    }
}
