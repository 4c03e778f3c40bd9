import Foundation
import TestSupport
import XCTest
@testable import KioskConfig

/// `kiosk-carousel check-config` and `config-reference` as a person runs them (the binary
/// `swift build --build-tests` puts next to the test bundle).
final class CheckConfigCommandTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let r = try ProductBinary.run(arguments)
        return (r.status, r.output)
    }

    func testValidFilePrintsOKAndExitsZero() throws {
        let r = try run(["check-config", repositoryRoot + "/config/example.toml"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.output, "OK\n")
    }

    func testBrokenFilePrintsEveryProblemAndExitsOne() throws {
        let fixture = ConfigFixture()
        let path = fixture.write("broken.toml", "[display]\nrotation = 45\n[carousel]\nfade_mni = 1\n")
        let r = try run(["check-config", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.output, """
            \(path):2:12: 'rotation' 45 is not one of 0, 90, 180, 270
            \(path):4:1: unknown key 'fade_mni' in [carousel]; did you mean 'fade_min'?

            """)
        let missing = try run(["check-config", fixture.folder + "/absent.toml"])
        XCTAssertEqual(missing.status, 1)
        // No hint at --config: check-config takes its file as an argument (issue 27).
        XCTAssertEqual(missing.output, fixture.folder + "/absent.toml:0:0: no such file\n")
    }

    /// A file that validates but will not do what it asks is OK, exit 0, with the warning after
    /// OK at the key's FILE:LINE:COLUMN.
    func testWarningFollowsOKAtTheKeyAndExitsZero() throws {
        let fixture = ConfigFixture()
        let path = fixture.write("update.toml", "[update]\ncheck_every = \"6h\"\nurl = \"https://updates.example.com/k.raucb\"\n")
        let r = try run(["check-config", path])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.output, "OK\n\(path):3:1: warning: \(ConfigWarnings.updateWithoutControlSocket)\n")
        let fixed = fixture.write("fixed.toml", "[update]\nurl = \"https://updates.example.com/k.raucb\"\n[control]\nsocket = \"/run/k.sock\"\n")
        XCTAssertEqual(try run(["check-config", fixed]).output, "OK\n")
    }

    /// The reference's "Checking a file" block is what check-config prints for a file with
    /// those three problems on those lines (run in /etc/kiosk-carousel: the fixture's folder
    /// stands for it).
    func testTheReferenceExampleIsWhatCheckConfigPrints() throws {
        let fixture = ConfigFixture()
        var lines = Array(repeating: "", count: 31)
        lines[0] = "[carousel]"
        lines[1] = "type = \"coverflow\""
        lines[2] = "wrap = false"
        lines[3] = "fade_mni = -2"
        lines[5] = "[display]"
        lines[6] = "backend = \"headless\""
        lines[7] = "buffers = 2"
        lines[8] = "rotation = 45"
        lines[29] = "[[item]]"
        lines[30] = "image = \"media/missing.png\""
        let path = fixture.write("config.toml", lines.joined(separator: "\n") + "\n")
        let r = try run(["check-config", path])
        XCTAssertEqual(r.status, 1)
        let shown = r.output.replacingOccurrences(of: path + ":", with: "config.toml:")
            .replacingOccurrences(of: fixture.folder, with: "/etc/kiosk-carousel")
        XCTAssertEqual(shown, ConfigReference.checkConfigExample.joined(separator: "\n") + "\n")
        XCTAssertTrue(ConfigReference.markdown().contains("```\n" + ConfigReference.checkConfigExample.joined(separator: "\n") + "\n```"))
    }

    /// check-config opens every clip: one FFmpeg cannot read, or a still image named like a
    /// clip, is reported at its `video` value; a real clip passes.
    func testClipsAreOpenedAndReportedAtTheirValue() throws {
        let fixture = ConfigFixture()
        fixture.write("notes.mp4", "just some text, not a video")
        let clip = try TestClips.moving()
        let path = fixture.write("video.toml", "[[item]]\nvideo = \"notes.mp4\"\n[[item]]\nvideo = \"\(clip)\"\n")
        let r = try run(["check-config", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.output, "\(path):2:9: 'video' \"notes.mp4\": not a video file FFmpeg can read (unknown container)\n")
        let good = fixture.write("good.toml", "[[item]]\nvideo = \"\(clip)\"\n")
        XCTAssertEqual(try run(["check-config", good]).output, "OK\n")
    }

    /// --version names the program's version, the compositor loops this CPU gets and what this
    /// machine decodes.
    func testVersionSaysWhatThisMachineDecodes() throws {
        let r = try run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.output.contains("compositor: ") && r.output.contains(" loops (built: baseline"), r.output)
        XCTAssertTrue(r.output.contains("h264: software h264"), r.output)
        XCTAssertTrue(r.output.contains("V4L2 m2m devices:"), r.output)
    }

    func testConfigReferencePrintsTheGeneratedReference() throws {
        let r = try run(["config-reference"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.output == ConfigReference.markdown())
    }
}
