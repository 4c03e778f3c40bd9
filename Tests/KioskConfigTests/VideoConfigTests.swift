import Foundation
import XCTest
@testable import KioskConfig

/// `[[item]] video`, `poster`, `loop`, `action = { play = "fullscreen" }`, `[video]` and the
/// video probe `check-config` installs.
final class VideoConfigTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    func testVideoItemKeys() throws {
        fixture.write("media/harbour.mp4")
        fixture.write("media/harbour.jpg")
        let c = try fixture.load("""
            [[item]]
            title = "The Harbour at Dawn"
            video = "media/harbour.mp4"
            poster = "media/harbour.jpg"
            loop = false
            action = { play = "fullscreen" }
            [[item]]
            video = "media/harbour.mp4"
            """)
        XCTAssertEqual(c.items[0].video, fixture.folder + "/media/harbour.mp4")
        XCTAssertEqual(c.items[0].poster, fixture.folder + "/media/harbour.jpg")
        XCTAssertNil(c.items[0].image)
        XCTAssertFalse(c.items[0].loop)
        XCTAssertEqual(c.items[0].action, .play(.fullscreen))
        XCTAssertEqual(c.items[0].mediaFiles, [fixture.folder + "/media/harbour.mp4", fixture.folder + "/media/harbour.jpg"])
        // Defaults: the clip loops, the poster is its first frame, selecting does nothing.
        XCTAssertTrue(c.items[1].loop)
        XCTAssertNil(c.items[1].poster)
        XCTAssertEqual(c.items[1].action, ItemAction.none)
    }

    func testVideoSection() throws {
        let defaults = try fixture.load("")
        XCTAssertEqual(defaults.video, VideoSettings())
        XCTAssertTrue(defaults.video.playCentred)
        let c = try fixture.load("""
            [video]
            play_centred = false
            start_delay = 1.5
            budget_mb = 96
            hardware = "off"
            threads = 2
            """)
        XCTAssertFalse(c.video.playCentred)
        XCTAssertEqual(c.video.startDelay, 1.5)
        XCTAssertEqual(c.video.budgetMB, 96)
        XCTAssertEqual(c.video.hardware, .off)
        XCTAssertEqual(c.video.threads, 2)
        XCTAssertEqual(fixture.report("[video]\nhardware = \"vaapi\"\n"), ["2:12: 'hardware' \"vaapi\" is not one of \"auto\", \"off\""])
        XCTAssertEqual(fixture.report("[video]\nbudget_mb = 0\n"), ["2:13: 'budget_mb' 0 is out of range (1 to 4096)"])
    }

    func testVideoItemProblemsNameTheirPlace() {
        fixture.write("a.mp4")
        fixture.write("a.jpg")
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"missing.mp4\"\n"),
                       ["2:9: 'video' file \"missing.mp4\" (\(fixture.folder)/missing.mp4) does not exist"])
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"a.mp4\"\nimage = \"a.jpg\"\n"),
                       ["3:9: an item shows an image or a video, not both; a video's still picture is 'poster'"])
        XCTAssertEqual(fixture.report("[[item]]\nposter = \"a.jpg\"\n"),
                       ["2:10: 'poster' is the still of a video item; this item has no 'video' (for a picture, use 'image')"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { play = \"fullscreen\" }\n"),
                       ["2:19: 'play' needs the item's 'video' = \"…\""])
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"a.mp4\"\naction = { play = \"window\" }\n"),
                       ["3:19: 'play' \"window\" is not one of \"fullscreen\""])
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"a.mp4\"\naction = { play = \"fullscreen\", emit = \"x\" }\n"),
                       ["3:19: an action takes one of exec, emit and play, not emit and play"])
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"a.mp4\"\naction = { play = \"fullscreen\", timeout = 3 }\n"),
                       ["3:43: 'timeout' applies only to exec actions"])
    }

    /// The clip check the load is given: what it says about a clip is reported at the value,
    /// a folder's clip at `[items] directory`; each file is asked once; without it clips are not read.
    func testTheLoadsClipCheckReportsAtTheKeyThatNamesTheClip() throws {
        fixture.write("good.mp4")
        fixture.write("bad.mp4")
        fixture.write("media/01-bad.mp4")
        let asked = AskedPaths()
        let media = MediaChecks(clip: { path in
            asked.add(path)
            return path.hasSuffix("bad.mp4") ? "no decoder for codec 'av1' on this machine" : nil
        })
        let text = "[items]\ndirectory = \"media\"\nextensions = [\"mp4\"]\n[[item]]\nvideo = \"good.mp4\"\n[[item]]\ntitle = \"x\"\nvideo = \"bad.mp4\"\n"
            + "[[item]]\nvideo = \"bad.mp4\"\nposter = \"nope.jpg\"\n"
        let file = fixture.write("config.toml", text)
        XCTAssertThrowsError(try ConfigLoader.load(path: file, media: media)) { error in
            XCTAssertEqual((error as? ConfigErrors)?.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }, [
                "2:13: 'directory' file \"01-bad.mp4\": no decoder for codec 'av1' on this machine",
                "8:9: 'video' \"bad.mp4\": no decoder for codec 'av1' on this machine",
                "10:9: 'video' \"bad.mp4\": no decoder for codec 'av1' on this machine",
                "11:10: 'poster' file \"nope.jpg\" (\(fixture.folder)/nope.jpg) does not exist",
            ])
        }
        XCTAssertEqual(asked.paths.sorted(), ["/bad.mp4", "/good.mp4", "/media/01-bad.mp4"].map { fixture.folder + $0 },
                       "each file once, also when other keys have problems")
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"bad.mp4\"\n"), [], "MediaChecks.none: clips not read")
    }

    /// Clips in `[items] directory` become video items when `extensions` takes them in.
    func testFolderClipsBecomeVideoItems() throws {
        fixture.write("media/01-dawn.jpg")
        fixture.write("media/02-harbour.mp4")
        let images = try fixture.load("[items]\ndirectory = \"media\"\n")
        XCTAssertEqual(images.items.map(\.id), ["file:01-dawn.jpg"])
        let both = try fixture.load("[items]\ndirectory = \"media\"\nextensions = [\"jpg\", \"mp4\"]\n")
        XCTAssertEqual(both.items.map(\.id), ["file:01-dawn.jpg", "file:02-harbour.mp4"])
        XCTAssertEqual(both.items[1].video, fixture.folder + "/media/02-harbour.mp4")
        XCTAssertNil(both.items[1].image)
        XCTAssertEqual(both.items[1].title, "harbour")
    }
}

/// The paths a check was asked about (from several threads).
final class AskedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ p: String) { lock.lock(); list.append(p); lock.unlock() }
    var paths: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
