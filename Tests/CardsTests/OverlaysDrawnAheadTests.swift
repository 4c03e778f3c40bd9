import LinuxSystem
import Raster
import XCTest
@testable import Cards

/// The box the first frame's text is handed over in: what it promised is `coming` until handed
/// over, then `drawn`; what it did not promise, or did not hand over before it finished, is not
/// from it; every handover and the finish wake the loop; a renderer with another style or size
/// takes nothing from it.
final class OverlaysDrawnAheadTests: XCTestCase {
    private let style = OverlayStyle()

    private func overlay(_ width: Int) -> Overlay {
        Overlay(texture: Texture(width: width, height: 10), x: 1, y: 2)
    }

    private func isComing(_ l: OverlaysDrawnAhead.Lookup) -> Bool { if case .coming = l { return true }; return false }
    private func isNotHere(_ l: OverlaysDrawnAhead.Lookup) -> Bool { if case .notHere = l { return true }; return false }
    private func drawn(_ l: OverlaysDrawnAhead.Lookup) -> Overlay?? { if case .drawn(let o) = l { return .some(o) }; return nil }

    func testPromisedOverlaysAreComingUntilHandedOverThenDrawn() throws {
        let box = try XCTUnwrap(OverlaysDrawnAhead(style: style, screenWidth: 640, screenHeight: 400, title: "Dawn", badge: "de"))
        XCTAssertTrue(isComing(box.title("Dawn")))
        XCTAssertTrue(isComing(box.badge("de")))
        XCTAssertTrue(isNotHere(box.title("Lake")), "another title is the renderer's to draw")
        XCTAssertTrue(isNotHere(box.badge("en")))
        XCTAssertFalse(waitReadable(box.eventFD, timeout: 0))

        let title = overlay(30)
        box.deliver(title: title)
        XCTAssertTrue(waitReadable(box.eventFD, timeout: 0), "a handover wakes the loop")
        XCTAssertFalse(box.acknowledge(), "not finished yet")
        XCTAssertFalse(waitReadable(box.eventFD, timeout: 0))
        let handed = try XCTUnwrap(drawn(box.title("Dawn")))
        XCTAssertTrue(handed?.texture === title.texture)
        XCTAssertTrue(isComing(box.badge("de")))

        box.finish()
        XCTAssertTrue(waitReadable(box.eventFD, timeout: 0), "the finish wakes the loop")
        XCTAssertTrue(box.acknowledge())
        XCTAssertTrue(box.isFinished)
        XCTAssertTrue(drawn(box.title("Dawn")) != nil, "what was handed over stays")
        XCTAssertTrue(isNotHere(box.badge("de")), "finished without it: the renderer draws it")
    }

    func testATitleWithNothingToDrawIsHandedOverAsSuch() throws {
        let box = try XCTUnwrap(OverlaysDrawnAhead(style: style, screenWidth: 640, screenHeight: 400, title: "Dawn", badge: nil))
        box.deliver(title: nil)
        let d = try XCTUnwrap(drawn(box.title("Dawn")))
        XCTAssertNil(d)
    }

    func testNoBoxWithoutAPromise() {
        XCTAssertNil(OverlaysDrawnAhead(style: style, screenWidth: 640, screenHeight: 400, title: nil, badge: nil))
    }

    func testItServesOnlyItsStyleAndSize() throws {
        let box = try XCTUnwrap(OverlaysDrawnAhead(style: style, screenWidth: 640, screenHeight: 400, title: "Dawn", badge: nil))
        XCTAssertTrue(box.serves(style: style, screenWidth: 640, screenHeight: 400))
        XCTAssertFalse(box.serves(style: style, screenWidth: 641, screenHeight: 400))
        var other = style
        other.titleOverlay.size += 1
        XCTAssertFalse(box.serves(style: other, screenWidth: 640, screenHeight: 400))
    }

    func testTheRendererLeavesOutWhatIsComingAndTakesWhatWasDrawn() throws {
        let renderer = OverlayRenderer(style: style, screenWidth: 640, screenHeight: 400)
        let box = try XCTUnwrap(OverlaysDrawnAhead(style: style, screenWidth: 640, screenHeight: 400, title: "Dawn", badge: "de"))
        renderer.drawnAhead = box
        XCTAssertNil(renderer.languageBadge("de"))
        XCTAssertTrue(renderer.leftOutForDrawnAhead)
        renderer.leftOutForDrawnAhead = false
        let badge = overlay(20)
        box.deliver(badge: badge)
        XCTAssertTrue(renderer.languageBadge("de")?.texture === badge.texture)
        XCTAssertFalse(renderer.leftOutForDrawnAhead)
        XCTAssertNotNil(renderer.languageBadge("en"), "another language: drawn by the renderer")
    }
}
