import Cards
import CarouselCore
import Display
import Foundation
@testable import Kiosk
import KioskConfig
import Raster
import TestSupport
import XCTest

/// Issue 30, "Seeing": in high contrast every text on a card and every overlay reaches 7:1
/// against what is behind it — computed from the frames `simulate` draws (the same session,
/// cards and compositor), not judged by eye. Each kind of text is found by drawing the frame a
/// second time with only that text transparent: the pixels that differ are the text, the second
/// frame is what is behind it (`WCAGContrast`). The normal theme does not reach 7:1 everywhere
/// (white titles over a bright picture), so the measurement can fail.
///
/// Large text: the same measurement finds each text larger by its factor, whole (not cut to
/// an ellipsis); a look switched while the kiosk runs draws what a kiosk started with it draws.
///
/// `SEEING_SHOTS=/some/folder` writes every measured frame there as a PNG to look at.
final class AccessibleLookTests: XCTestCase {
    var scratch: ScratchFolder!

    override func setUpWithError() throws { scratch = try ScratchFolder("high-contrast") }
    override func tearDown() { scratch.remove() }

    /// A scene to measure: a configuration on a screen, maybe with a message shown.
    struct Scene {
        var name: String
        var config: KioskConfiguration
        var width: Int
        var height: Int
        var notice: MessageCard? = nil
        var problem: MessageCard? = nil
    }

    /// One kind of text and how to make only it transparent.
    struct TextKind {
        var name: String
        var hide: (inout KioskConfiguration) -> Void
    }

    static func transparent(_ c: ARGBColor) -> ARGBColor { c & 0x00FF_FFFF }

    static let cardTitles = TextKind(name: "card title") { c in
        for i in c.items.indices { c.items[i].style.titleColor = transparent(c.items[i].style.titleColor) }
    }
    static let cardSubtitles = TextKind(name: "card subtitle") { c in
        for i in c.items.indices { c.items[i].style.subtitleColor = transparent(c.items[i].style.subtitleColor) }
    }
    static let titleOverlay = TextKind(name: "title overlay") { c in
        c.theme.titleOverlay.color = transparent(c.theme.titleOverlay.color)
    }
    /// Notices and problem cards are drawn in the title overlay's colour.
    static let messageText = TextKind(name: "message text") { c in
        c.theme.titleOverlay.color = transparent(c.theme.titleOverlay.color)
    }
    /// Not text, but an overlay the issue names: the dots against their plate.
    static let pageDots = TextKind(name: "page dots") { c in
        c.theme.pageIndicator.color = transparent(c.theme.pageIndicator.color)
    }
    static let currentDot = TextKind(name: "current dot") { c in
        c.theme.pageIndicator.currentColor = transparent(c.theme.pageIndicator.currentColor)
    }

    /// The frame of `config` as `simulate` draws it at 0 s, and the outlines of its cards.
    func render(_ scene: Scene, config: KioskConfiguration) -> (frame: Canvas, outlines: [[Point2]]) {
        let session = CarouselSession(config: config, width: scene.width, height: scene.height)
        let cards = SceneCards(session: session)
        if let notice = scene.notice { cards.showNotice(notice, until: nil) }
        cards.message = scene.problem
        _ = session.renderFrame(full: true, now: 0)
        // The cards' quads (the faces are the card's size; the overlays are not).
        let size = CarouselSession.cardSize(config)
        let cardQuads = session.quads().filter { $0.texture.width == size.width && $0.texture.height == size.height }
        return withExtendedLifetime(cards) { (session.frame, cardQuads.map(\.corners)) }
    }

    func frame(_ scene: Scene, config: KioskConfiguration) -> Canvas { render(scene, config: config).frame }

    /// Measures `kind` in `scene` drawn with `look`; writes the frame when `SEEING_SHOTS` is set.
    func measure(_ scene: Scene, _ kind: TextKind, look: AccessibleLook) throws -> WCAGContrast.Measurement {
        var withLook = scene.config
        withLook.accessibility.highContrast = look.highContrast
        withLook.accessibility.largeText = look.largeText
        let styled = look.apply(to: scene.config)
        var hidden = styled
        kind.hide(&hidden)
        let (shown, outlines) = render(scene, config: withLook)
        // The seam is faithful: the look applied by the session draws what the styled file draws.
        let styledFrame = frame(scene, config: styled)
        XCTAssertTrue(same(shown, styledFrame), "\(scene.name): the session's look differs from the styled configuration")
        let measured = WCAGContrast.measure(with: shown, without: frame(scene, config: hidden), outlines: outlines)
        if let folder = ProcessInfo.processInfo.environment["SEEING_SHOTS"] {
            let tag = [look.highContrast ? "high-contrast" : nil, look.largeText ? "large-text" : nil]
                .compactMap { $0 }.joined(separator: "+")
            try PNGEncoder.write(shown, to: "\(folder)/\(scene.name)-\(tag).png")
        }
        print("contrast \(scene.name) / \(kind.name) (high contrast \(look.highContrast), large text \(look.largeText)): \(measured)")
        return measured
    }

    func same(_ a: Canvas, _ b: Canvas) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { return false } }
        return true
    }

    // MARK: Scenes

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    func exampleScene() throws -> Scene {
        let config = try ConfigLoader.load(path: Self.packageRoot + "/config/example.toml")
        return Scene(name: "example", config: config, width: 1280, height: 720)
    }

    /// A card filling the screen with a bright picture (white and pale yellow stripes) and the
    /// title overlay and dots over it: the hardest place for white text.
    func brightScene() throws -> Scene {
        let svg = try scratch.write("bright.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">
            <rect width="640" height="360" fill="#FFFFFF"/>
            <rect y="120" width="640" height="60" fill="#FFF6C0"/><rect y="240" width="640" height="60" fill="#E8F4FF"/>
            </svg>
            """)
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(640, 360)
        // Both overlays on the picture, clear of the card's own text at its bottom.
        c.theme.titleOverlay.position = .top
        c.theme.titleOverlay.margin = 60
        c.theme.pageIndicator.position = .top
        c.theme.pageIndicator.margin = 24
        c.items = (0..<3).map { i in
            var item = ItemConfig(id: "bright\(i)", title: "Bright \(i)")
            item.subtitle = "A sunny beach at noon"
            item.image = svg
            item.style.shadow = false
            return item
        }
        return Scene(name: "bright", config: c, width: 640, height: 360)
    }

    /// The bright scene with its first card's picture broken: the "!" face with its title.
    func errorCardScene() throws -> Scene {
        var scene = try brightScene()
        scene.name = "error-card"
        scene.config.items[0].image = try scratch.write("broken.png", "this is not a picture")
        return scene
    }

    // MARK: Tests

    func testEveryTextAndOverlayReachesSevenToOneInHighContrast() throws {
        let hc = AccessibleLook(highContrast: true)
        let example = try exampleScene(), bright = try brightScene(), broken = try errorCardScene()
        var notice = bright
        notice.name = "notice"
        notice.notice = .idleWarning()
        var problem = bright
        problem.name = "problem-card"
        problem.problem = MessageCard.configProblems(
            [ConfigDiagnostic(file: "/etc/kiosk-carousel/config.toml", line: 3, column: 1, message: "'sped' is not a key of [carousel]")],
            file: "/etc/kiosk-carousel/config.toml")
        let cases: [(Scene, TextKind)] = [
            (example, Self.cardTitles), (example, Self.cardSubtitles), (example, Self.titleOverlay),
            (example, Self.pageDots), (example, Self.currentDot),
            (bright, Self.cardTitles), (bright, Self.cardSubtitles), (bright, Self.titleOverlay),
            (bright, Self.pageDots), (bright, Self.currentDot),
            (notice, Self.messageText), (problem, Self.messageText), (broken, Self.cardTitles),
        ]
        for (scene, kind) in cases {
            let m = try measure(scene, kind, look: hc)
            XCTAssertGreaterThan(m.pixels, 40, "\(scene.name) / \(kind.name): no text found")
            XCTAssertGreaterThanOrEqual(m.minRatio, 7, "\(scene.name) / \(kind.name): \(m)")
        }
    }

    /// The measurement can fail: the normal theme's white title over the bright picture (with
    /// only a soft shadow) and the card's own title on it are far from 7:1.
    func testTheNormalThemeDoesNotReachSevenToOneEverywhere() throws {
        let bright = try brightScene()
        let plain = AccessibleLook()
        let overlay = try measure(bright, Self.titleOverlay, look: plain)
        XCTAssertGreaterThan(overlay.pixels, 40)
        XCTAssertLessThan(overlay.minRatio, 7, "\(overlay)")
        let title = try measure(bright, Self.cardTitles, look: plain)
        XCTAssertGreaterThan(title.pixels, 40)
        XCTAssertLessThan(title.minRatio, 7, "\(title)")
        // (The normal dots are not even found there: white on white differs by nothing.)
    }

    /// Large text: card titles and subtitles 1.5 times, the title overlay twice as tall, each
    /// still whole (as wide as its size says: an ellipsis would make it narrower).
    func testLargeTextDrawsEveryTextLargerAndWhole() throws {
        let bright = try brightScene()
        var notice = bright
        notice.name = "notice"
        notice.notice = .idleWarning()
        // A title that fills the overlay's line at normal size: in large text it wraps to two.
        var long = bright
        long.name = "long-title"
        for i in long.config.items.indices { long.config.items[i].title = "The Harbour Lighthouse at Dawn" }
        // (scene, text, factor, drawn on one line: then as much wider as it is taller)
        let expected: [(Scene, TextKind, Double, Bool)] = [
            (bright, Self.cardTitles, AccessibleLook.cardTextScale, true),
            (bright, Self.cardSubtitles, AccessibleLook.cardTextScale, true),
            (bright, Self.titleOverlay, AccessibleLook.titleOverlayScale, true),
            (notice, Self.messageText, AccessibleLook.messageTextScale, false),
            (long, Self.titleOverlay, AccessibleLook.titleOverlayScale, false),
        ]
        for (scene, kind, factor, oneLine) in expected {
            let normal = try measure(scene, kind, look: AccessibleLook())
            let large = try measure(scene, kind, look: AccessibleLook(largeText: true))
            let tall = Double(large.height) / Double(normal.height)
            let wide = Double(large.box.2 - large.box.0 + 1) / Double(normal.box.2 - normal.box.0 + 1)
            let ink = Double(large.pixels) / Double(normal.pixels)
            print("large text \(scene.name) / \(kind.name): \(String(format: "%.2f× as tall, %.2f× as wide, %.2f× the pixels", tall, wide, ink))")
            XCTAssertGreaterThanOrEqual(tall, factor * 0.9, "\(scene.name) / \(kind.name): \(normal) → \(large)")
            // Whole: a text cut to an ellipsis would have far fewer pixels than factor² times
            // (anti-aliased edges grow only by the factor, hence 0.7).
            XCTAssertGreaterThanOrEqual(ink, factor * factor * 0.7, "\(scene.name) / \(kind.name) is cut: \(normal) → \(large)")
            if oneLine { XCTAssertGreaterThanOrEqual(wide, factor * 0.9, "\(scene.name) / \(kind.name) is cut: \(normal) → \(large)") }
            XCTAssertLessThan(large.box.3, scene.height, "\(scene.name) / \(kind.name) runs off the screen")
        }
    }

    /// The keys switch the look of a running session: every card cached in the old look is
    /// drawn again, so the frame is exactly what a session started in the new look draws — and
    /// switching back gives the first frame back.
    func testASwitchedLookDrawsWhatASessionStartedWithItDraws() throws {
        let scene = try brightScene()
        let session = CarouselSession(config: scene.config, width: scene.width, height: scene.height)
        _ = session.renderFrame(full: true, now: 0)
        let before = copy(session.frame)
        for look in [AccessibleLook(highContrast: true), AccessibleLook(largeText: true),
                     AccessibleLook(largeText: true, highContrast: true)] {
            session.setLook(look, now: 0)
            XCTAssertTrue(session.needsFrame)
            _ = session.renderFrame(full: true, now: 0)
            var started = scene.config
            started.accessibility.largeText = look.largeText
            started.accessibility.highContrast = look.highContrast
            XCTAssertTrue(same(session.frame, frame(scene, config: started)), "\(look)")
        }
        session.setLook(AccessibleLook(), now: 0)
        _ = session.renderFrame(full: true, now: 0)
        XCTAssertTrue(same(session.frame, before), "back to the normal look")
    }

    func copy(_ c: Canvas) -> Canvas {
        let out = Canvas(width: c.width, height: c.height)
        out.copy(from: c, x: 0, y: 0, width: c.width, height: c.height)
        return out
    }
}
