import XCTest
@testable import KioskConfig

/// `[audio]` and a video item's `audio` key (issue 30, Sound).
final class AudioConfigTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    func testDefaults() {
        let c = KioskConfiguration()
        XCTAssertEqual(c.audio.device, "default")
        XCTAssertEqual(c.audio.volume, 0.8)
        XCTAssertFalse(ItemConfig(id: "a", title: "").audio, "clips are muted unless asked")
    }

    func testKeysLandInTheModel() throws {
        fixture.write("a.mp4")
        let c = try fixture.load("[audio]\ndevice = \"plughw:1,0\"\nvolume = 0.25\n[[item]]\nvideo = \"a.mp4\"\naudio = true\n")
        XCTAssertEqual(c.audio.device, "plughw:1,0")
        XCTAssertEqual(c.audio.volume, 0.25)
        XCTAssertEqual(c.items.map(\.audio), [true])
    }

    /// Bad values are reported at their LINE:COLUMN.
    func testBadValuesNameTheirPlace() {
        fixture.write("a.mp4")
        XCTAssertEqual(fixture.report("[audio]\nvolume = 1.5\n"), ["2:10: 'volume' 1.5 is out of range (0 to 1)"])
        XCTAssertEqual(fixture.report("[audio]\nvolume = \"loud\"\n").count, 1)
        XCTAssertEqual(fixture.report("[audio]\ndevice = \"\"\n").count, 1)
        XCTAssertTrue(fixture.report("[audio]\ndevice = \"\"\n").first?.hasPrefix("2:10: ") == true, fixture.report("[audio]\ndevice = \"\"\n").description)
        XCTAssertEqual(fixture.report("[[item]]\naudio = true\n"),
                       ["2:9: 'audio' plays the sound of the item's clip; this item has no 'video'"])
        XCTAssertEqual(fixture.report("[[item]]\nvideo = \"a.mp4\"\naudio = \"yes\"\n").count, 1)
    }
}
