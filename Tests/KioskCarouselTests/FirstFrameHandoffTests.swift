import Kiosk
import KioskConfig
import XCTest
@testable import kiosk_carousel

/// The session leaves the first frame's title out while the fonts' thread draws it, so every
/// text box handed over is finished by someone: the thread that drew it, or the handoff when the
/// thread ended (or never started) without taking it. A box left unfinished would keep the title
/// off the screen for good.
final class FirstFrameHandoffTests: XCTestCase {
    private func ahead() throws -> FirstFrameAhead {
        var c = KioskConfiguration()
        c.items = [ItemConfig(id: "a", title: "Mountain Dawn"), ItemConfig(id: "b", title: "Lake")]
        let ahead = FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400)
        XCTAssertNotNil(ahead.text)
        return ahead
    }

    func testTheThreadTakesTheWordAndDrawingFinishesTheBox() throws {
        let handoff = FirstFrameHandoff()
        let given = try ahead()
        handoff.give(given)
        let taken = try XCTUnwrap(handoff.take())
        handoff.close()
        XCTAssertFalse(try XCTUnwrap(given.text).isFinished, "taken: the thread draws it, the handoff does not finish it")
        taken.draw()
        XCTAssertTrue(try XCTUnwrap(given.text).isFinished)
    }

    func testAWordGivenAndNotTakenIsFinishedWhenTheThreadEnds() throws {
        let handoff = FirstFrameHandoff()
        let given = try ahead()
        handoff.give(given)
        handoff.close()   // the fonts' thread could not load fontconfig
        XCTAssertTrue(try XCTUnwrap(given.text).isFinished)
    }

    func testAWordGivenAfterTheThreadEndedIsFinishedAtOnce() throws {
        let handoff = FirstFrameHandoff()
        handoff.close()   // ended, or never started
        let given = try ahead()
        handoff.give(given)
        XCTAssertTrue(try XCTUnwrap(given.text).isFinished)
    }

    func testOnlyTheFirstWordCountsAndALaterBoxIsFinished() throws {
        let handoff = FirstFrameHandoff()
        handoff.give(nil)   // nothing to draw
        let later = try ahead()
        handoff.give(later)
        XCTAssertNil(handoff.take())
        XCTAssertTrue(try XCTUnwrap(later.text).isFinished, "nobody draws a word that does not count")
    }

    func testTakeWaitsForTheWord() throws {
        let handoff = FirstFrameHandoff()
        let given = try ahead()
        let taken = expectation(description: "taken")
        let thread = Thread {
            if handoff.take() != nil { taken.fulfill() }
        }
        thread.start()
        Thread.sleep(forTimeInterval: 0.05)
        handoff.give(given)
        wait(for: [taken], timeout: 30)
    }
}
