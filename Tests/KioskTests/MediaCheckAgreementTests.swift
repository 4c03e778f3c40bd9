import Cards
import Foundation
import KioskConfig
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// Issue 27 §4: one rule for pictures, clips and fonts in `check-config`, `simulate` and `run` (at
/// start and on reload): every clip is opened, every font looked up, so one config gives the same
/// problem list from all three.
final class MediaCheckAgreementTests: ConfigFolderTestCase {
    override var folderPrefix: String { "media-agreement" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A PNG renamed clip.mp4, named as a video; and a picture that is fine.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let png = repository.path + "/config/media/08-ocean-waves.png"
        try FileManager.default.copyItem(atPath: png, toPath: folder + "/clip.mp4")
        try FileManager.default.copyItem(atPath: png, toPath: folder + "/pic.png")
    }

    let good = "[[item]]\nid = \"a\"\nimage = \"pic.png\"\n"
    var bad: String { good + "[[item]]\nid = \"v\"\nvideo = \"clip.mp4\"\n[carousel]\nspead = 3\n" }

    /// The problems as the loader gives them with the program's checks.
    func expected() throws -> [String] {
        do {
            _ = try ConfigLoader.load(path: path, media: MediaFileCheck.kiosk)
            return []
        } catch let e as ConfigErrors {
            return e.diagnostics.map(\.description)
        }
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// check-config, simulate, run at start and run's reload of `badText` (over a carousel
    /// running `good`) each give exactly `problems`.
    func assertEveryCommandSays(_ problems: [String], of badText: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try badText.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try ProductBinary.run(["check-config", path])
        XCTAssertEqual(check.status, 1, file: file, line: line)
        XCTAssertEqual(lines(check.output), problems, "check-config", file: file, line: line)

        let simulate = try ProductBinary.run(["simulate", "--config", path, "--until", "0", "--size", "160x120"])
        XCTAssertEqual(simulate.status, 1, file: file, line: line)
        XCTAssertEqual(lines(simulate.errors), problems, "simulate", file: file, line: line)

        // run, at start: the same problems, logged and shown on the card (it keeps running).
        let run = try ProductBinary.run(["run", "--config", path, "--backend", "headless", "--exit-after", "0.2"])
        XCTAssertEqual(run.status, 0, run.errors, file: file, line: line)
        for p in problems { XCTAssertTrue(run.errors.contains(p), "run at start does not say \(p):\n\(run.errors)", file: file, line: line) }

        // run, on reload (the loop's path): a running carousel refuses the file with the same list.
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path, media: MediaFileCheck.kiosk)
        let behavior = KioskBehavior(session: CarouselSession(config: config, width: 160, height: 120),
                                     log: try EventLog(path: nil), now: 0, performAction: { _, _, _, _ in [] })
        try badText.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(behavior.reload(path: path, reason: "test", now: 1, logger: Logger(label: "test")), file: file, line: line)
        XCTAssertEqual(behavior.lastReloadProblems.map(\.description), problems, "run's reload", file: file, line: line)
    }

    func testOneConfigGivesTheSameProblemsFromCheckConfigSimulateAndRun() throws {
        try bad.write(toFile: path, atomically: true, encoding: .utf8)
        let problems = try expected()
        XCTAssertEqual(problems, [
            "\(path):6:9: 'video' \"clip.mp4\": a still image (PNG), not a video; show it as an image item instead",
            "\(path):8:1: unknown key 'spead' in [carousel]",
        ])
        try assertEveryCommandSays(problems, of: bad)
    }

    /// A font that is not installed (the card would show "!", the title overlay another font) is
    /// a problem at its value in check-config, simulate and run alike.
    func testAFontThatIsNotInstalledIsTheSameProblemInCheckConfigSimulateAndRun() throws {
        let badFont = good + "[theme.title_overlay]\nfont = \"No Such Font Family 12\"\n"
        try badFont.write(toFile: path, atomically: true, encoding: .utf8)
        let problems = try expected()
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems.first?.hasPrefix("\(path):5:8: 'font' \"No Such Font Family 12\" is not installed (fc-match would use ") ?? false,
                      "\(problems)")
        try assertEveryCommandSays(problems, of: badFont)
    }
}
