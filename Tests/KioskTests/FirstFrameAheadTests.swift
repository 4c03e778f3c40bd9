import CarouselCore
import KioskConfig
import Raster
import XCTest
@testable import Kiosk

/// `FirstFrameAhead` draws what the session's first frame draws with cairo and pango, from the
/// same styles: each texture it makes is, pixel for pixel, one the session's first frame shows
/// (a texture that differed would warm other fonts, sizes or paths than the frame's, and draw
/// ahead of it for nothing).
final class FirstFrameAheadTests: XCTestCase {
    private func config() -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = .coverflow
        c.carousel.itemSize = Size2(200, 150)
        c.theme.card.font = "DejaVu Sans"
        c.items = colouredItems(6)
        c.items[0].style = c.theme.card
        c.items[0].title = "Mountain Dawn"
        return c
    }

    /// The textures `ahead` drew, each found (same size, same pixels) among the session's first
    /// frame's quads; returns how many it drew.
    @discardableResult
    private func assertDrawnAsTheFirstFrame(_ c: KioskConfiguration, width: Int = 640, height: Int = 400, renderScale: Double = 1,
                                            file: StaticString = #filePath, line: UInt = #line) -> Int {
        let drawn = FirstFrameAhead(config: c, screenWidth: width, screenHeight: height, renderScale: renderScale).draw()
        // As `KioskApp` makes it: the card workers draw the faces, the first frame shows loading faces.
        let session = CarouselSession(config: c, width: width, height: height, renderScale: renderScale, synchronousCards: false)
        let shown = session.quads().map(\.texture)
        for (n, texture) in drawn.enumerated() {
            let same = shown.contains { $0.width == texture.width && $0.height == texture.height
                && memcmp($0.pixels, texture.pixels, texture.width * texture.height * 4) == 0 }
            XCTAssertTrue(same, "texture \(n) drawn ahead (\(texture.width)x\(texture.height)) is not one the first frame shows",
                          file: file, line: line)
        }
        return drawn.count
    }

    func testTheLoadingFaceThePageIndicatorAndTheTitleAreTheFirstFrames() {
        // The loading face, the dots and the title.
        XCTAssertEqual(assertDrawnAsTheFirstFrame(config()), 3)
    }

    func testARenderScaleLargeTextAndHighContrastAreDrawnAsTheFrameDrawsThem() {
        var c = config()
        c.accessibility.largeText = true
        c.accessibility.highContrast = true
        XCTAssertEqual(assertDrawnAsTheFirstFrame(c), 3)
        XCTAssertEqual(assertDrawnAsTheFirstFrame(c, width: 800, height: 480, renderScale: 0.5), 3)
    }

    func testTheDialsRingAndTheLanguageBadgeWhenTheFrameHasThem() {
        var c = config()
        c.gestures.dial = DialOptions(center: Point2(320, 200), innerRadius: 60, outerRadius: 180, itemsPerTurn: 8)
        c.languages = LanguagesSettings(available: ["en", "de"])
        XCTAssertEqual(assertDrawnAsTheFirstFrame(c), 5)
    }

    func testNothingForTheTitleOrTheFaceWithoutItems() {
        var c = config()
        c.items = []
        XCTAssertEqual(assertDrawnAsTheFirstFrame(c), 0)
        c = config()
        c.theme.showTitle = false
        c.theme.showPageIndicator = false
        XCTAssertEqual(assertDrawnAsTheFirstFrame(c), 1, "the loading face only")
    }
}
