import Cards
import CarouselCore
import KioskConfig
import XCTest
@testable import Kiosk

/// A card over the carousel for a while (the USB stick's result): a press ends it and does
/// nothing else; the finger that ended it moves nothing until it lifts.
final class NoticeTests: XCTestCase {
    /// The cards over the last `session()` (its owner here).
    var cards: SceneCards!

    func session() -> CarouselSession {
        var config = KioskConfiguration()
        config.carousel.type = .linear
        config.items = (0..<5).map { ItemConfig(id: "i\($0)", title: "Item \($0)") }
        let s = CarouselSession(config: config, width: 800, height: 480, synchronousCards: true)
        cards = SceneCards(session: s)
        return s
    }

    func testATouchEndsTheNoticeAndIsSwallowedUntilItLifts() {
        let s = session()
        cards.showNotice(MessageCard(title: "New content"), until: 10)
        XCTAssertEqual(cards.shownMessage?.title, "New content")
        s.handle(.touchDown(slot: 0, x: 600, y: 240), now: 1)
        XCTAssertNil(cards.shownMessage, "ended by the touch")
        for k in 1...10 { s.handle(.touchMotion(slot: 0, x: 600 - Double(k) * 40, y: 240), now: 1 + Double(k) * 0.016) }
        s.handle(.touchUp(slot: 0), now: 1.3)
        XCTAssertNil(cards.notice)
        for k in 0..<60 { _ = s.tick(now: 1.3 + Double(k) * 0.016) }
        XCTAssertEqual(s.position.offset, 0, "the swipe that ended the card moved nothing")
        // The next swipe moves the carousel.
        s.handle(.touchDown(slot: 0, x: 600, y: 240), now: 3)
        for k in 1...10 { s.handle(.touchMotion(slot: 0, x: 600 - Double(k) * 40, y: 240), now: 3 + Double(k) * 0.016) }
        s.handle(.touchUp(slot: 0), now: 3.2)
        for k in 0..<120 { _ = s.tick(now: 3.2 + Double(k) * 0.016) }
        XCTAssertNotEqual(s.position.offset, 0)
    }

    func testAKeyEndsItAndEndNoticeEndsItWithoutInput() {
        let s = session()
        cards.showNotice(MessageCard(title: "A"), until: nil)
        s.handle(.keyDown(.right), now: 1)
        XCTAssertNil(cards.notice)
        XCTAssertEqual(s.position.index, 0, "the key only ended the card")
        cards.showNotice(MessageCard(title: "B"), until: 5)
        cards.endNotice()
        XCTAssertNil(cards.shownMessage)
    }

    func testTheConfigProblemCardStaysAboveANotice() {
        let s = session()
        cards.message = MessageCard(tone: .problem, title: "The configuration has problems")
        cards.showNotice(MessageCard(title: "New content"), until: 5)
        XCTAssertEqual(cards.shownMessage?.title, "The configuration has problems")
    }
}
