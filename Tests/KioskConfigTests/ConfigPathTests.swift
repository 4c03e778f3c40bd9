import Foundation
import XCTest
@testable import KioskConfig

/// Where the config is found, and what its relative paths are relative to.
final class ConfigPathTests: XCTestCase {
    func testLookupOrderIsOptionThenEnvironmentThenSystem() {
        let env = ["KIOSK_CAROUSEL_CONFIG": "/srv/env.toml"]
        XCTAssertEqual(ConfigLoader.resolvePath(explicit: "/tmp/opt.toml", environment: env), "/tmp/opt.toml")
        XCTAssertEqual(ConfigLoader.resolvePath(explicit: nil, environment: env), "/srv/env.toml")
        XCTAssertEqual(ConfigLoader.resolvePath(explicit: "", environment: env), "/srv/env.toml")
        XCTAssertEqual(ConfigLoader.resolvePath(explicit: nil, environment: ["KIOSK_CAROUSEL_CONFIG": ""]), "/etc/kiosk-carousel/config.toml")
        XCTAssertEqual(ConfigLoader.resolvePath(explicit: nil, environment: [:]), "/etc/kiosk-carousel/config.toml")
    }

    /// "no such file" says how to give another file only where the program chose the path: a
    /// path the person typed (`--config FILE`) needs no advice to use `--config` (issue 27).
    func testMissingFileHintFitsHowThePathWasChosen() {
        let env = ["KIOSK_CAROUSEL_CONFIG": "/srv/env.toml"]
        XCTAssertNil(ConfigLoader.missingFileHint(explicit: "/tmp/opt.toml", environment: env))
        XCTAssertEqual(ConfigLoader.missingFileHint(explicit: nil, environment: env),
                       "named by $KIOSK_CAROUSEL_CONFIG: set it to the config file, or give --config FILE")
        XCTAssertEqual(ConfigLoader.missingFileHint(explicit: "", environment: [:]),
                       "the default place: give --config FILE or set $KIOSK_CAROUSEL_CONFIG")
    }

    func testRelativePathsResolveAgainstTheConfigFolderNotTheWorkingDirectory() throws {
        let fixture = ConfigFixture()
        fixture.write("site/media/a.png")
        fixture.write("elsewhere/.keep")
        let config = fixture.write("site/kiosk.toml", "[[item]]\nimage = \"media/a.png\"\n[[item]]\nimage = \"../site/media/./a.png\"\n")
        let saved = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        _ = FileManager.default.changeCurrentDirectoryPath(fixture.folder + "/elsewhere")
        let c = try ConfigLoader.load(path: config)
        XCTAssertEqual(c.items.map(\.image), [fixture.folder + "/site/media/a.png", fixture.folder + "/site/media/a.png"])
        // A config named relative to the working directory works too.
        _ = FileManager.default.changeCurrentDirectoryPath(fixture.folder)
        XCTAssertEqual(try ConfigLoader.load(path: "site/kiosk.toml").items.first?.image, fixture.folder + "/site/media/a.png")
        _ = FileManager.default.changeCurrentDirectoryPath(fixture.folder + "/site")
        XCTAssertEqual(try ConfigLoader.load(path: "kiosk.toml").items.first?.image, fixture.folder + "/site/media/a.png")
    }

    func testAbsolutePathsStayAsWritten() throws {
        let fixture = ConfigFixture()
        let image = fixture.write("a.png")
        let c = try fixture.load("[[item]]\nimage = \"\(image)\"\n[input]\ndevices = [\"/dev/input/event0\"]\n")
        XCTAssertEqual(c.items.first?.image, image)
        XCTAssertEqual(c.input.devices, ["/dev/input/event0"])
    }
}
