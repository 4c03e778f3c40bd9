import Cards
import CarouselCore
import Foundation
import JSON
import KioskConfig
import TestSupport
import XCTest
@testable import Kiosk

/// The language shown (issue 30, languages): the `language` key and the badge cycle
/// `[languages] available`, cards and overlays are drawn again in it, idle home goes back to the
/// default, `state` and the `language` event say which is shown.
final class LanguageTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lang-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private static let translated = """
        [carousel]
        type = "linear"
        item_size = [240, 180]
        [languages]
        available = ["en", "de"]
        default = "en"
        [idle]
        home_after = 6
        [[item]]
        id = "harbour"
        title = { en = "The Harbour", de = "Der Hafen" }
        subtitle = { en = "Boats at dusk", de = "Boote am Abend" }
        [[item]]
        id = "museum"
        title = "Museum"

        """

    private static func key(_ t: Double, _ key: KeyName = .language) -> [TimedInputEvent] {
        [.init(time: t, event: .keyDown(key)), .init(time: t + 0.05, event: .keyUp(key))]
    }

    private func simulate(_ config: String, script: [TimedInputEvent], until: Double,
                          shots: [(Double, String)] = []) throws -> (events: [[String: JSONValue]], simulator: Simulator) {
        let file = path("config.toml")
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        var plan = SimulationPlan(config: try ConfigLoader.load(path: file), width: 640, height: 360)
        plan.script = script
        plan.until = until
        plan.shots = shots.map { ($0.0, path($0.1)) }
        let log = try EventLog(path: nil)
        let simulator = try Simulator(plan: plan, log: log)
        try simulator.run()
        return (log.lines.compactMap { JSONValue.parse($0)?.objectValue }, simulator)
    }

    private func languageEvents(_ events: [[String: JSONValue]]) -> [String] {
        events.filter { $0["event"]?.stringValue == "language" }
            .map { "\(String(format: "%.2f", $0["t"]?.numberValue ?? -1)) \($0["language"]?.stringValue ?? "?")" }
    }

    private func png(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// en → de → en with the key: the shown texts follow, and the screen drawn in English again is
    /// the English one byte for byte (the faces were drawn again, not left in German).
    func testTheLanguageKeyCyclesAndTheCardsAreDrawnInTheNewLanguage() throws {
        let run = try simulate(Self.translated, script: Self.key(1) + Self.key(3), until: 4.5,
                               shots: [(0.5, "en.png"), (2, "de.png"), (4, "en-again.png")])
        XCTAssertEqual(languageEvents(run.events), ["1.00 de", "3.00 en"])
        let en = try png("en.png"), de = try png("de.png")
        XCTAssertNotEqual(en, de, "the German texts are drawn")
        XCTAssertEqual(try png("en-again.png"), en, "back in English, the screen is the English one")
        XCTAssertEqual(run.simulator.behavior.language.current, "en")
    }

    /// What the cards and the title overlay are given in German: the items' German texts (the
    /// card pipeline draws a face again when its title or subtitle changed, `sameFace`).
    func testTheSessionShowsTheItemsInTheShownLanguage() throws {
        let run = try simulate(Self.translated, script: Self.key(1), until: 2)
        let session = run.simulator.session
        XCTAssertEqual(run.simulator.behavior.language.current, "de")
        XCTAssertEqual(session.config.items.map(\.title), ["Der Hafen", "Museum"])
        XCTAssertEqual(session.config.items[0].subtitle, "Boote am Abend")
        XCTAssertEqual(session.cards.items.map(\.title), ["Der Hafen", "Museum"], "the card pipeline draws the German faces")
        XCTAssertEqual(session.config.languages.shownLanguage, "de")
    }

    func testIdleHomeReturnsToTheDefaultLanguage() throws {
        let run = try simulate(Self.translated, script: Self.key(1), until: 8, shots: [(0.5, "en.png"), (7.5, "home.png")])
        XCTAssertEqual(languageEvents(run.events), ["1.00 de", "7.05 en"], "home_after 6 s after the last input (the key's release at 1.05)")
        let home = try XCTUnwrap(run.events.first { $0["event"]?.stringValue == "went_home" })
        XCTAssertEqual(home["t"]?.numberValue ?? -1, 7.05, accuracy: 0.01)
        XCTAssertEqual(try png("home.png"), try png("en.png"))
    }

    /// A tap on the badge (top right) shows the next language and does not reach the carousel;
    /// a tap elsewhere is the carousel's.
    func testATapOnTheBadgeCyclesTheLanguage() throws {
        let session = CarouselSession(config: try ConfigLoader.parse(Self.translated, file: path("config.toml")), width: 640, height: 360)
        let badge = LanguageController.badgeFrame(session)
        XCTAssertGreaterThan(badge.x, 320, "in the right half")
        XCTAssertLessThan(badge.y, 60, "at the top")
        let x = badge.x + badge.width / 2, y = badge.y + badge.height / 2
        let tap: [TimedInputEvent] = [
            .init(time: 1, event: .touchDown(slot: 0, x: x, y: y)), .init(time: 1.1, event: .touchUp(slot: 0)),
            .init(time: 2, event: .pointerMotion(x: x, y: y)),
            .init(time: 2.1, event: .pointerButton(pressed: true)), .init(time: 2.2, event: .pointerButton(pressed: false)),
            // The centre card: selecting it is the carousel's, not the badge's.
            .init(time: 3, event: .touchDown(slot: 0, x: 320, y: 180)), .init(time: 3.1, event: .touchUp(slot: 0)),
        ]
        let run = try simulate(Self.translated, script: tap, until: 4)
        XCTAssertEqual(languageEvents(run.events), ["1.10 de", "2.20 en"])
        let selected = run.events.filter { $0["event"]?.stringValue == "selected" }.map { $0["t"]?.numberValue ?? -1 }
        XCTAssertEqual(selected.count, 1, "only the tap on the card selects: \(selected)")
        XCTAssertEqual(selected.first ?? -1, 3.1, accuracy: 0.01)
    }

    /// Without `[languages]` the key does nothing, no badge is drawn, and the language is "en".
    func testWithoutLanguagesTheKeyDoesNothing() throws {
        let plain = "[carousel]\ntype = \"linear\"\nitem_size = [240, 180]\n[[item]]\ntitle = \"Museum\"\n"
        let run = try simulate(plain, script: Self.key(1), until: 2)
        XCTAssertEqual(languageEvents(run.events), [])
        XCTAssertEqual(run.simulator.behavior.language.current, "en")
        XCTAssertEqual(run.simulator.session.quads().count, 2, "the card and its title: no badge")
    }

    /// `state` says which language is shown.
    func testStateHasTheLanguage() throws {
        final class Effects: ControlEffects {
            func reload(reason: String) -> Bool { true }
            func writeScreenshot(to path: String) throws {}
            var screenSize: (width: Int, height: Int) { (640, 360) }
            var fps: Double { 0 }
            var foregroundActive: Bool { false }
            var blanked: Bool { false }
        }
        let session = CarouselSession(config: try ConfigLoader.parse(Self.translated, file: path("config.toml")), width: 640, height: 360)
        let behavior = KioskBehavior(session: session, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
        func stateLanguage() -> String? {
            guard case .state(let s) = ControlCommandHandler.handle(.state, behavior: behavior, now: 1, effects: Effects()) else { return nil }
            return JSONValue.parse(ControlReply.state(s).line(command: "state", requestID: nil))?.objectValue?["language"]?.stringValue
        }
        XCTAssertEqual(stateLanguage(), "en")
        behavior.input(.keyDown(.language), now: 1)
        XCTAssertEqual(stateLanguage(), "de")
        XCTAssertEqual(behavior.log.lines.last, #"{"t":1.0000,"event":"language","language":"de"}"#)
    }

    /// A reload adopts a file with a text lacking a translation, and logs the warning
    /// check-config prints (the kiosk runs with it; whoever keeps it hears it in the journal).
    func testAReloadLogsTheWarnings() throws {
        let file = path("config.toml")
        try Self.translated.write(toFile: file, atomically: true, encoding: .utf8)
        let session = CarouselSession(config: try ConfigLoader.load(path: file), width: 640, height: 360)
        let behavior = KioskBehavior(session: session, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
        try Self.translated.replacingOccurrences(of: "de = \"Der Hafen\"", with: "fr = \"Le Port\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let capture = LogCapture()
        XCTAssertNotNil(behavior.reload(path: file, reason: "test", now: 1, logger: capture.logger))
        XCTAssertEqual(capture.messages(.warning), [
            "\(file):11:1: 'title' of [[item]] #1 has no text for \"de\"; in \"de\" the \"en\" text (the default language's) is shown",
            "\(file):11:31: 'title' of [[item]] #1 has a text for \"fr\", but [languages] available does not list \"fr\"; it is never shown",
        ])
    }

    /// A reload that no longer offers the shown language shows the new default.
    func testAReloadWithoutTheShownLanguageShowsTheDefault() throws {
        let reduced = path("reduced.toml")
        try Self.translated.replacingOccurrences(of: "available = [\"en\", \"de\"]", with: "available = [\"en\"]")
            .write(toFile: reduced, atomically: true, encoding: .utf8)
        let file = path("config.toml")
        try Self.translated.write(toFile: file, atomically: true, encoding: .utf8)
        var plan = SimulationPlan(config: try ConfigLoader.load(path: file), width: 640, height: 360)
        plan.script = Self.key(1)
        plan.reloads = [(2, reduced)]
        plan.until = 3
        let log = try EventLog(path: nil)
        let simulator = try Simulator(plan: plan, log: log)
        try simulator.run()
        XCTAssertEqual(languageEvents(log.lines.compactMap { JSONValue.parse($0)?.objectValue }), ["1.00 de", "2.00 en"])
        XCTAssertEqual(simulator.session.config.items[0].title, "The Harbour")
    }
}

/// The kiosk's own cards follow the language shown: the empty carousel, and a notice shown in
/// one language changes with the `language` key while it stays on screen.
final class KioskStringsLanguageTests: XCTestCase {
    func testTheEmptyCarouselAndANoticeFollowTheLanguage() throws {
        let config = try ConfigLoader.parse("[languages]\navailable = [\"en\", \"de\"]\n", file: "/tmp/kiosk-lang-test.toml")
        let session = CarouselSession(config: config, width: 640, height: 360)
        let behavior = KioskBehavior(session: session, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
        XCTAssertEqual(behavior.sceneCards.shownMessage?.title, "No items yet")
        behavior.input(.keyDown(.language), now: 1)
        XCTAssertEqual(behavior.sceneCards.shownMessage?.title, "Noch keine Inhalte")
        behavior.sceneCards.showNotice(until: nil) { l in MessageCard(title: KioskStrings.text(.updateInstalled, l)) }
        XCTAssertEqual(behavior.sceneCards.shownMessage?.title, "Aktualisierung installiert")
        behavior.input(.keyUp(.language), now: 1.05)
        behavior.input(.keyDown(.language), now: 2)
        XCTAssertEqual(behavior.language.current, "en")
        XCTAssertEqual(behavior.sceneCards.shownMessage?.title, "Update installed", "the notice is shown in English now, and the key did not end it")
    }
}
