import Cards
import CarouselCore
import Display
import KioskConfig
import LinuxSystem
import Raster
import TestSupport
import XCTest
@testable import Kiosk

/// `FirstFrameAhead` draws the first frame's title and language badge on another thread and
/// hands them to the session (`OverlaysDrawnAhead`): the session leaves out what is still being
/// drawn, shows what was handed over (the same texture, not one drawn again), draws what the box
/// never promised or gave up on, and ignores a box drawn for another style or size. The screen it
/// ends with is the one a session without a box draws.
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

    private func session(_ c: KioskConfiguration, width: Int = 640, height: Int = 400, renderScale: Double = 1) -> CarouselSession {
        // As `KioskApp` makes it: the card workers draw the faces, the first frame shows loading faces.
        CarouselSession(config: c, width: width, height: height, renderScale: renderScale, synchronousCards: false)
    }

    private func samePixels(_ a: Texture, _ b: Texture) -> Bool {
        a.width == b.width && a.height == b.height && memcmp(a.pixels, b.pixels, a.width * a.height * 4) == 0
    }

    /// The textures `ahead` drew, each found (same size, same pixels) among the first frame of a
    /// session without a box; returns how many it drew.
    @discardableResult
    private func assertDrawnAsTheSessionDrawsThem(_ c: KioskConfiguration, width: Int = 640, height: Int = 400, renderScale: Double = 1,
                                                  file: StaticString = #filePath, line: UInt = #line) -> Int {
        let ahead = FirstFrameAhead(config: c, screenWidth: width, screenHeight: height, renderScale: renderScale)
        let drawn = ahead.draw()
        XCTAssertEqual(ahead.text?.isFinished ?? true, true, "the box is finished once drawn", file: file, line: line)
        let shown = session(c, width: width, height: height, renderScale: renderScale).quads().map(\.texture)
        for (n, texture) in drawn.enumerated() {
            XCTAssertTrue(shown.contains { samePixels($0, texture) },
                          "texture \(n) drawn ahead (\(texture.width)x\(texture.height)) is not one the first frame shows", file: file, line: line)
        }
        return drawn.count
    }

    func testTheTitleIsTheOneTheSessionDraws() {
        XCTAssertEqual(assertDrawnAsTheSessionDrawsThem(config()), 1)
    }

    func testARenderScaleLargeTextAndHighContrastAreDrawnAsTheSessionDrawsThem() {
        var c = config()
        c.accessibility.largeText = true
        c.accessibility.highContrast = true
        XCTAssertEqual(assertDrawnAsTheSessionDrawsThem(c), 1)
        XCTAssertEqual(assertDrawnAsTheSessionDrawsThem(c, width: 800, height: 480, renderScale: 0.5), 1)
    }

    func testTheLanguageBadgeWhenTheFrameHasOne() {
        var c = config()
        c.gestures.dial = DialOptions(center: Point2(320, 200), innerRadius: 60, outerRadius: 180, itemsPerTurn: 8)
        c.languages = LanguagesSettings(available: ["en", "de"])
        XCTAssertEqual(assertDrawnAsTheSessionDrawsThem(c), 2)
    }

    func testNoBoxWhenTheFirstFrameHasNoText() {
        var c = config()
        c.items = []
        XCTAssertNil(FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400).text)
        c = config()
        c.theme.showTitle = false
        XCTAssertNil(FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400).text)
        c = config()
        c.items[0].title = ""
        XCTAssertNil(FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400).text)
        XCTAssertEqual(FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400).draw().count, 0)
    }

    /// The title is left out while it is drawn, shown once handed over (the very texture drawn
    /// ahead), and the frame then is the frame of a session that drew it itself.
    func testTheFirstFrameGoesWithoutTheTitleUntilItIsHandedOver() throws {
        var c = config()
        c.languages = LanguagesSettings(available: ["en", "de"])
        let ahead = FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400)
        let box = try XCTUnwrap(ahead.text)
        let s = session(c)
        s.showTextDrawnAhead(box)
        let plain = session(c).quads()
        let first = s.quads()
        XCTAssertEqual(first.count, plain.count - 2, "neither the title nor the badge while they are drawn")
        XCTAssertTrue(s.textLeftOutForDrawnAhead)
        s.textDrawnAheadArrived()
        XCTAssertTrue(s.needsFrame)

        let drawn = ahead.draw()
        XCTAssertEqual(drawn.count, 2)
        let second = s.quads()
        XCTAssertFalse(s.textLeftOutForDrawnAhead)
        XCTAssertEqual(second.count, plain.count)
        for texture in drawn {
            XCTAssertTrue(second.contains { $0.texture === texture }, "the texture drawn ahead is shown, not drawn again")
        }
        for (a, b) in zip(second, plain) {
            XCTAssertTrue(samePixels(a.texture, b.texture))
            XCTAssertEqual(a.corners, b.corners)
        }
    }

    func testATitleHandedOverBeforeTheFirstFrameIsInIt() throws {
        let ahead = FirstFrameAhead(config: config(), screenWidth: 640, screenHeight: 400)
        let title = try XCTUnwrap(ahead.draw().first)
        let s = session(config())
        s.showTextDrawnAhead(try XCTUnwrap(ahead.text))
        XCTAssertTrue(s.quads().contains { $0.texture === title })
        XCTAssertFalse(s.textLeftOutForDrawnAhead)
    }

    func testABoxFinishedWithoutTheTitleLetsTheSessionDrawIt() throws {
        let ahead = FirstFrameAhead(config: config(), screenWidth: 640, screenHeight: 400)
        let box = try XCTUnwrap(ahead.text)
        let s = session(config())
        s.showTextDrawnAhead(box)
        XCTAssertEqual(s.quads().count, session(config()).quads().count - 1)
        box.finish()   // the fonts' thread could not draw it
        let quads = s.quads()
        XCTAssertFalse(s.textLeftOutForDrawnAhead)
        XCTAssertEqual(quads.count, session(config()).quads().count)
    }

    func testABoxDrawnForAnotherStyleOrSizeIsNotUsed() throws {
        var large = config()
        large.accessibility.largeText = true
        for ahead in [FirstFrameAhead(config: large, screenWidth: 640, screenHeight: 400),
                      FirstFrameAhead(config: config(), screenWidth: 800, screenHeight: 480)] {
            let s = session(config())
            s.showTextDrawnAhead(try XCTUnwrap(ahead.text))
            XCTAssertEqual(s.quads().count, session(config()).quads().count, "drawn by the session, not left out")
            XCTAssertFalse(s.textLeftOutForDrawnAhead)
        }
    }

    func testAnotherFocusedItemIsDrawnBySessionWhileTheBoxIsDrawing() throws {
        let ahead = FirstFrameAhead(config: config(), screenWidth: 640, screenHeight: 400)
        var other = config()
        other.items[0].title = "Lake Evening"
        let s = session(other)
        s.showTextDrawnAhead(try XCTUnwrap(ahead.text))
        XCTAssertEqual(s.quads().count, session(other).quads().count)
        XCTAssertFalse(s.textLeftOutForDrawnAhead)
    }

    /// In the loop: the first frame presented without the title, the eventfd handled, the frame
    /// after it with the title, the line that says when it came, and the screen the same as a
    /// kiosk's that drew its own title.
    func testTheKioskShowsTheTitleInTheFrameAfterItCameAndSaysWhen() throws {
        let path = NSTemporaryDirectory() + "first-frame-ahead-\(getpid()).toml"
        defer { unlink(path) }
        var text = "[carousel]\ntype = \"linear\"\nitem_size = [200, 150]\n"
        for i in 0..<4 { text += "[[item]]\nid = \"i\(i)\"\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let opened = OpenCount()
        func kiosk(_ log: LogCapture) throws -> (KioskApp, HeadlessDisplay) {
            let display = HeadlessDisplay(width: 400, height: 240)
            return (try KioskApp(configPath: path, config: config, display: display, inputs: [],
                                 openInputs: { opened.add(); return [] },
                                 log: try EventLog(path: nil), logger: log.logger), display)
        }
        let log = LogCapture()
        let (app, display) = try kiosk(log)
        let ahead = FirstFrameAhead(config: config, screenWidth: 400, screenHeight: 240)
        let box = try XCTUnwrap(ahead.text)
        app.startTextDrawnAhead(box)
        app.beforeWait()
        XCTAssertEqual(app.framesPresented, 1)
        XCTAssertTrue(app.session.textLeftOutForDrawnAhead)
        XCTAssertFalse(log.lines.contains { $0.contains("first frame's text") }, "not on screen yet")
        XCTAssertEqual(opened.count, 0, "the input devices open after the frame with the text")
        XCTAssertFalse(app.inputsOpening)
        app.beforeWait()
        XCTAssertEqual(opened.count, 0)
        XCTAssertFalse(app.inputsOpening)

        ahead.draw()
        XCTAssertTrue(box.eventFD >= 0 && waitReadable(box.eventFD, timeout: 5), "the handover wakes the loop")
        app.reactor.dispatchReady(only: [box.eventFD])
        app.beforeWait()
        XCTAssertEqual(app.framesPresented, 2, "the frame that shows the title")
        XCTAssertTrue(app.awaitInputOpening(), "then the input devices")
        XCTAssertEqual(opened.count, 1)
        let lines = log.messages(.info).filter { $0.hasPrefix("start-up: the first frame's text on screen ") }
        XCTAssertEqual(lines.count, 1, "\(log.lines)")
        XCTAssertTrue(lines.first?.hasSuffix(" s after the first frame (drawn ahead on the fonts' thread)") == true, "\(lines)")
        XCTAssertFalse(waitReadable(box.eventFD, timeout: 0), "acknowledged")

        let plainLog = LogCapture()
        let (plain, plainDisplay) = try kiosk(plainLog)
        plain.beforeWait()
        XCTAssertEqual(memcmp(display.screen.pixels, plainDisplay.screen.pixels, 400 * 240 * 4), 0,
                       "the screen with the title handed over is the screen of a kiosk that drew it")
        app.session.requestFullFrame()
        app.beforeWait()
        XCTAssertEqual(log.messages(.info).filter { $0.contains("first frame's text") }.count, 1, "said once")
    }

    /// A thread that never hands the text over (it hangs in fontconfig) keeps the input devices
    /// closed for `openingHoldLimit` at most.
    func testTheInputDevicesOpenAnywayWhenTheTextNeverComes() throws {
        final class Clock: @unchecked Sendable { var time = 50.0 }
        let clock = Clock()
        var c = config()
        c.items = Array(c.items.prefix(3))
        let opened = OpenCount()
        let display = HeadlessDisplay(width: 640, height: 400)
        let app = try KioskApp(configPath: "/nonexistent/kiosk.toml", config: c, display: display, inputs: [],
                               openInputs: { opened.add(); return [] }, log: try EventLog(path: nil),
                               logger: LogCapture().logger, clock: { clock.time })
        let ahead = FirstFrameAhead(config: c, screenWidth: 640, screenHeight: 400)
        app.startTextDrawnAhead(try XCTUnwrap(ahead.text))
        app.beforeWait()
        XCTAssertTrue(app.session.textLeftOutForDrawnAhead)
        XCTAssertFalse(app.inputsOpening)
        let due = try XCTUnwrap(app.reactor.nextDeadline)
        XCTAssertEqual(due, app.now + InputDevicesComponent.openingHoldLimit, accuracy: 0.01)
        clock.time += InputDevicesComponent.openingHoldLimit
        app.reactor.runDue(tolerance: 0.0005)
        XCTAssertTrue(app.awaitInputOpening())
        XCTAssertEqual(opened.count, 1)
        app.beforeWait()
        XCTAssertFalse(app.inputsOpening, "once")
        XCTAssertEqual(opened.count, 1, "once")
    }
}

/// Counts the input openings (they run on a thread of their own).
final class OpenCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    func add() { lock.lock(); value += 1; lock.unlock() }
}
