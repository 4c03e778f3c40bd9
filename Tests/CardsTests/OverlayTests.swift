import CarouselCore
import KioskConfig
import Raster
import XCTest
@testable import Cards

final class OverlayTests: XCTestCase {
    func testPageIndicatorHighlightsCurrentAndHidesPastMax() throws {
        var style = OverlayStyle()
        style.pageIndicatorMaxItems = 10
        style.pageIndicator.margin = 24
        let r = OverlayRenderer(style: style, screenWidth: 800, screenHeight: 600)
        let o = try XCTUnwrap(r.pageIndicator(count: 5, current: 2))
        XCTAssertEqual(o.x, (800 - o.texture.width) / 2)
        XCTAssertLessThan(o.y + o.texture.height, 600)
        XCTAssertEqual(o.y + o.texture.height / 2, 600 - 24, accuracy: 1)    // margin to the centre line
        // Dot centres: first at 1 + 6.5, then every 20 px.
        let cy = o.texture.height / 2
        XCTAssertEqual(o.texture.argb(Int(1 + 6.5 + 2 * 20), cy).a, 255)     // current: opaque white
        XCTAssertEqual(o.texture.argb(Int(1 + 6.5), cy).a, 0x66, accuracy: 2) // others: translucent
        XCTAssertTrue(r.pageIndicator(count: 5, current: 2)!.texture === o.texture, "cached")
        XCTAssertNil(r.pageIndicator(count: 11, current: 0))
        XCTAssertNil(r.pageIndicator(count: 1, current: 0))
        style.showPageIndicator = false
        XCTAssertNil(OverlayRenderer(style: style, screenWidth: 800, screenHeight: 600).pageIndicator(count: 5, current: 0))
    }

    func testDialRingIsABandBetweenTheTwoCirclesWhenADialIsConfigured() throws {
        var style = OverlayStyle()
        style.dialRing = DialRingStyle()
        style.dialRing.fill = 0x40FF_FFFF
        style.dialRing.color = 0xFFFF_FFFF
        style.dialRing.width = 2
        let r = OverlayRenderer(style: style, screenWidth: 800, screenHeight: 600)
        XCTAssertNil(r.dialRing(nil), "no dial, no ring")
        let dial = DialOptions(center: Point2(600, 300), innerRadius: 60, outerRadius: 150, itemsPerTurn: 12)
        let o = try XCTUnwrap(r.dialRing(dial))
        let c = o.texture.width / 2
        XCTAssertEqual(o.x + c, 600, accuracy: 1)
        XCTAssertEqual(o.y + c, 300, accuracy: 1)
        XCTAssertEqual(o.texture.argb(c, c).a, 0, "the centre (inside the inner circle) stays clear")
        XCTAssertEqual(o.texture.argb(c + 105, c).a, 0x40, accuracy: 2, "the band is filled faintly")
        XCTAssertEqual(o.texture.argb(c + 150, c).a, 255, accuracy: 60, "the outer circle is outlined")
        XCTAssertEqual(o.texture.argb(c + 60, c).a, 255, accuracy: 60, "the inner circle is outlined")
        XCTAssertTrue(r.dialRing(dial)!.texture === o.texture, "cached")
        style.showDial = false
        XCTAssertNil(OverlayRenderer(style: style, screenWidth: 800, screenHeight: 600).dialRing(dial))
    }

    func testManyDotsShrinkToFitTheScreen() throws {
        var style = OverlayStyle()
        style.pageIndicatorMaxItems = 100
        let o = try XCTUnwrap(OverlayRenderer(style: style, screenWidth: 400, screenHeight: 300).pageIndicator(count: 30, current: 0))
        XCTAssertLessThanOrEqual(o.texture.width, 400)
    }

    func testTitleOverlay() throws {
        var theme = Theme()
        theme.titleOverlay.color = 0xFFFF_FF00
        theme.titleOverlay.background = 0x8C00_0000
        let style = OverlayStyle(theme: theme)
        XCTAssertEqual(style.titleOverlay.color, 0xFFFF_FF00)
        let r = OverlayRenderer(style: style, screenWidth: 1280, screenHeight: 720)
        let o = try XCTUnwrap(r.title(for: ItemConfig(id: "a", title: "Harbour at night")))
        XCTAssertEqual(o.x, (1280 - o.texture.width) / 2)
        XCTAssertEqual(o.y + o.texture.height, 720 - 56)
        XCTAssertEqual(o.quad.corners.first, .init(Double(o.x), Double(o.y)))
        let long = try XCTUnwrap(r.title(for: ItemConfig(id: "b", title: String(repeating: "very long ", count: 60))))
        XCTAssertLessThanOrEqual(long.texture.width, 1280)
        XCTAssertNil(r.title(for: ItemConfig(id: "c", title: "")))
        XCTAssertNil(r.title(for: nil))
        XCTAssertEqual(o.texture.argb(1, 1).a, 0, "rounded plate ends")
        XCTAssertEqual(o.texture.argb(o.texture.width / 2, 2).a, 0x8C, accuracy: 2)
        theme.titleOverlay.position = .top
        theme.titleOverlay.margin = 10
        let top = try XCTUnwrap(OverlayRenderer(style: OverlayStyle(theme: theme), screenWidth: 1280, screenHeight: 720)
            .title(for: ItemConfig(id: "a", title: "Top")))
        XCTAssertEqual(top.y, 10)
        theme.showTitle = false
        XCTAssertNil(OverlayRenderer(style: OverlayStyle(theme: theme), screenWidth: 100, screenHeight: 100)
            .title(for: ItemConfig(id: "a", title: "x")))
    }
}
