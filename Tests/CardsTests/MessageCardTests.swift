import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// The face a screen explains itself with (`MessageCard`): its text, and that it fits any
/// screen (centred plate, transparent around it, text shrunk until it fits).
final class MessageCardTests: XCTestCase {
    func problems(_ n: Int, file: String = "/etc/kiosk-carousel/config.toml") -> [ConfigDiagnostic] {
        (1...n).map { ConfigDiagnostic(file: file, line: $0 * 3, column: 9,
                                       message: "unknown key 'spead_\($0)' in [carousel]; did you mean 'speed'?") }
    }

    func testProblemsListTheFirstFewAndCountTheRest() {
        let card = MessageCard.configProblems(problems(9), file: "/etc/kiosk-carousel/config.toml")
        XCTAssertEqual(card.tone, .problem)
        XCTAssertEqual(card.title, "The configuration has problems")
        XCTAssertEqual(card.shownLines.count, 6)
        XCTAssertEqual(card.shownLines[0], "/etc/kiosk-carousel/config.toml:3:9: unknown key 'spead_1' in [carousel]; did you mean 'speed'?")
        XCTAssertEqual(card.shownLines.last, "and 4 more")
        XCTAssertEqual(card.footer, "The kiosk starts as soon as /etc/kiosk-carousel/config.toml is fixed.")
        XCTAssertEqual(MessageCard.configProblems(problems(6), file: "f").shownLines.count, 6, "six fit without a count")
    }

    func testAMissingFileIsNamedWithoutAPlace() {
        let d = ConfigDiagnostic(file: "/etc/kiosk-carousel/config.toml", line: 0, column: 0, message: "no such file")
        let card = MessageCard.configProblems([d], file: d.file)
        XCTAssertEqual(card.title, "The configuration cannot be read")
        XCTAssertEqual(card.lines, ["/etc/kiosk-carousel/config.toml: no such file"])
    }

    func testEmptyCarouselSaysWhereItemsGo() {
        XCTAssertEqual(MessageCard.emptyCarousel(folder: "/srv/pictures", configFile: "/c.toml").lines, ["Add pictures to /srv/pictures"])
        XCTAssertEqual(MessageCard.emptyCarousel(folder: nil, configFile: "/c.toml").lines, ["Add [[item]] tables to /c.toml"])
        XCTAssertEqual(MessageCard.emptyCarousel(folder: nil, configFile: "/c.toml").tone, .notice)
    }

    /// Centred plate, transparent corners, nothing cut at the edges, at kiosk sizes (portrait too).
    func testFitsEveryScreen() throws {
        let card = MessageCard.configProblems(problems(12), file: "/etc/kiosk-carousel/config.toml")
        for (w, h) in [(800, 480), (1920, 1080), (480, 800), (320, 240)] {
            let t = MessageCardRenderer.render(card, width: w, height: h)
            XCTAssertEqual(t.width, w)
            XCTAssertEqual(t.height, h)
            XCTAssertEqual(t.argb(0, 0).a, 0, "\(w)x\(h): the background shows around the plate")
            XCTAssertGreaterThan(t.argb(w / 2, h / 2).a, 100, "\(w)x\(h): the plate is in the middle")
            // The plate leaves a margin on every side: the text was made to fit.
            for x in [0, w - 1] { for y in stride(from: 0, to: h, by: 7) { XCTAssertEqual(t.argb(x, y).a, 0, "\(w)x\(h) edge \(x),\(y)") } }
            for y in [0, h - 1] { for x in stride(from: 0, to: w, by: 7) { XCTAssertEqual(t.argb(x, y).a, 0, "\(w)x\(h) edge \(x),\(y)") } }
            if let dir = ProcessInfo.processInfo.environment["KIOSK_MESSAGE_PNG_DIR"] {
                try TexturePNG.write(t, to: "\(dir)/problems-\(w)x\(h).png")
                try TexturePNG.write(MessageCardRenderer.render(MessageCard.emptyCarousel(folder: "/var/lib/kiosk-carousel/pictures", configFile: ""),
                                                                width: w, height: h), to: "\(dir)/empty-\(w)x\(h).png")
            }
        }
    }
}
