import Cards
import CarouselCore
import Foundation
import KioskConfig
import TestSupport
import XCTest
@testable import Kiosk

/// EN 301 549 5.1.6.1/5.1.6.2 (operation with keys alone, no focus trapped): each thing that
/// covers the carousel can be left with a key — a full-screen clip with Escape, Home or Enter,
/// a notice and the idle warning with any key, the "!" card of an item that cannot be shown by
/// stepping past it — and what the kiosk does by itself (attract mode) can be stopped with one.
/// (A foreground program is left by holding Home: `ForegroundLeaveKeyTests`, Tests/vm/kiosk-exec.sh.)
final class NoFocusTrapTests: XCTestCase {
    var scratch: ScratchFolder!
    override func setUpWithError() throws { scratch = try ScratchFolder("focus") }
    override func tearDown() { scratch.remove() }

    func behavior(_ items: [ItemConfig]) throws -> KioskBehavior {
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(160, 120)
        c.video.startDelay = 0
        c.items = items
        let s = CarouselSession(config: c, width: 480, height: 320)
        return KioskBehavior(session: s, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
    }

    func testEachKeyThatLeavesLeavesAFullScreenClip() throws {
        let clip = try TestClips.moving(seconds: 5)
        var film = ItemConfig(id: "film", title: "Film")
        film.video = clip
        film.action = .play(.fullscreen)
        for key in [KeyName.escape, .home, .enter] {
            let b = try behavior([film, ItemConfig(id: "b", title: "B")])
            b.input(.keyDown(.enter), now: 0.1)
            b.input(.keyUp(.enter), now: 0.15)
            b.tick(now: 0.2)
            XCTAssertTrue(b.video.isPlayingFullscreen, "Enter started it")
            // Speech's keys change how the kiosk speaks: the clip plays on.
            b.input(.keyDown(.volumeUp), now: 0.5)
            b.input(.keyUp(.volumeUp), now: 0.55)
            b.tick(now: 0.6)
            XCTAssertTrue(b.video.isPlayingFullscreen, "volume_up left it playing")
            b.input(.keyDown(key), now: 1)
            b.input(.keyUp(key), now: 1.05)
            b.tick(now: 1.1)
            XCTAssertFalse(b.video.isPlayingFullscreen, "\(key) left it")
            // And the keys move the carousel again.
            b.input(.keyDown(.right), now: 2)
            for k in 0..<60 { b.tick(now: 2 + Double(k) / 60) }
            XCTAssertEqual(b.session.position.index, 1, "after \(key)")
        }
    }

    func testAnyKeyLeavesANoticeAndTheIdleWarning() throws {
        for card in [MessageCard(title: "New content"), MessageCard.idleWarning()] {
            // The keys that change how the kiosk speaks or which language it shows keep the card
            // (it is spoken again, or shown in the new language); every other key leaves it.
            let keeping: Set<KeyName> = [.language, .speech, .repeat, .volumeUp, .volumeDown]
            for key in KeyName.allCases where ![.largeText, .highContrast, .pause].contains(key) {
                let b = try behavior([ItemConfig(id: "a", title: "A"), ItemConfig(id: "b", title: "B")])
                b.sceneCards.showNotice(card, until: nil)
                b.input(.keyDown(key), now: 1)
                b.input(.keyUp(key), now: 1.05)
                if keeping.contains(key) {
                    XCTAssertNotNil(b.sceneCards.shownMessage, "\(key) kept \(card.title)")
                } else {
                    XCTAssertNil(b.sceneCards.shownMessage, "\(key) left \(card.title)")
                }
            }
        }
    }

    func testTheCardOfAnItemThatCannotBeShownIsSteppedPast() throws {
        var broken = ItemConfig(id: "broken", title: "Broken")
        broken.image = try scratch.write("broken.png", "not a picture")
        let b = try behavior([broken, ItemConfig(id: "b", title: "B")])
        _ = b.session.renderFrame(now: 0)
        XCTAssertEqual(b.session.cardFailures, 1, "the \"!\" face is shown")
        b.input(.keyDown(.right), now: 1)
        for k in 0..<60 { b.tick(now: 1 + Double(k) / 60) }
        XCTAssertEqual(b.session.position.index, 1)
        b.input(.keyDown(.left), now: 3)
        for k in 0..<60 { b.tick(now: 3 + Double(k) / 60) }
        XCTAssertEqual(b.session.position.index, 0, "and back: it is a card like any other")
    }
}
