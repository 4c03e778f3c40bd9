import CarouselCore
@testable import Display
import Foundation
import Input
import KioskConfig
import Raster
import XCTest
@testable import Kiosk

/// `render_scale` in the session: the frame is the scaled size, the layout and touch positions
/// stay in screen pixels, cards are rasterized once at the scaled size, and a touch on the
/// panel (rotated, at ½) lands on the card the display shows there.
final class RenderScaleSessionTests: XCTestCase {
    func config(scale: Double = 1) -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = .linear
        c.carousel.itemSize = Size2(160, 120)
        c.display.renderScale = .fixed(scale)
        c.theme.backgroundBottom = nil
        c.theme.showTitle = false
        c.theme.showPageIndicator = false
        c.items = colouredItems(5)
        return c
    }

    func testTheFrameIsTheScaledSizeAndTheCardsAreTheLayoutTimesTheScale() {
        let full = CarouselSession(config: config(), width: 480, height: 320)
        let half = CarouselSession(config: config(scale: 0.5), width: 480, height: 320, renderScale: 0.5)
        XCTAssertTrue(half.size == (240, 160))
        XCTAssertTrue(half.screenSize == (480, 320), "the layout's size")
        _ = full.renderFrame(now: 0)
        _ = half.renderFrame(now: 0)
        XCTAssertEqual(half.frame.width, 240)
        let cardsFull = full.quads().prefix(5), cardsHalf = half.quads().prefix(5)
        for (a, b) in zip(cardsFull, cardsHalf) {
            XCTAssertEqual(b.corners, a.corners.map { Point2($0.x / 2, $0.y / 2) })
        }
        // Faces rasterized once, at the scaled size (not drawn at 160×120 and shrunk).
        XCTAssertEqual(cardsHalf.first?.texture.width, 80)
        XCTAssertEqual(cardsHalf.first?.texture.height, 60)
        // 0.75 rounds to whole pixels.
        let s = CarouselSession(config: config(scale: 0.75), width: 1366, height: 768, renderScale: 0.75)
        XCTAssertTrue(s.size == (1025, 576))
    }

    /// The panel is 320×480 and turned 90° (the scene is 480×320), drawn at ½ (240×160). A touch
    /// at a panel position where the display shows the centred card selects it; one just below
    /// the card does not. The display's copy and the input mapping are the real ones.
    func testATouchOnThePanelAtHalfScaleAndRotatedLandsOnTheCardShownThere() throws {
        let session = CarouselSession(config: config(scale: 0.5), width: 480, height: 320, renderScale: 0.5)
        _ = session.renderFrame(now: 0)
        // What the panel shows: the real copy into a 320×480 buffer.
        let panel = Canvas(width: 320, height: 480)
        let buffer = ScanoutBuffer(base: UnsafeMutableRawPointer(panel.pixels), pitch: panel.stride * 4,
                                   width: 320, height: 480, format: .xrgb8888)
        ScanoutCopier().copy(session.frame.bounds, from: session.frame, to: buffer, rotation: .clockwise90)
        let mapping = ScreenMapping(panelWidth: 320, panelHeight: 480, rotation: .quarter)
        let background = panel[2, 2]
        // The centred card spans screen y 100…220: panel points of screen (240, 216) and (240, 226).
        func tap(screenX: Double, screenY: Double) -> (shown: UInt32, events: [CarouselEvent]) {
            let p = mapping.panelPoint(screenX: screenX, screenY: screenY)
            let shown = panel[Int(p.x), Int(p.y)]
            // The input path: panel pixels → screen pixels (rotation only; the scale is the display's).
            let s = mapping.screenPoint(panelX: p.x, panelY: p.y)
            session.handle(.touchDown(slot: 0, x: s.x, y: s.y), now: 1)
            session.handle(.touchUp(slot: 0), now: 1.05)
            return (shown, (session.takeEvents() + session.tick(now: 1.2)).map(\.event))
        }
        let on = tap(screenX: 240, screenY: 216)
        XCTAssertNotEqual(on.shown, background, "the panel shows the card there")
        XCTAssertTrue(on.events.contains(.selected(index: 0)), "\(on.events)")
        let off = tap(screenX: 240, screenY: 226)
        XCTAssertEqual(off.shown, background, "the panel shows the background there")
        XCTAssertFalse(off.events.contains(.selected(index: 0)))
    }

    func testResizeWithANewScaleRedrawsTheCardsAtTheNewSize() {
        let session = CarouselSession(config: config(), width: 480, height: 320)
        _ = session.renderFrame(now: 0)
        XCTAssertEqual(session.quads().first?.texture.width, 160)
        session.resize(width: 480, height: 320, renderScale: 0.5)
        XCTAssertTrue(session.size == (240, 160))
        XCTAssertEqual(session.renderScale, 0.5)
        _ = session.renderFrame(now: 0.1)
        XCTAssertEqual(session.quads().first?.texture.width, 80)
        session.resize(width: 480, height: 320)
        XCTAssertEqual(session.renderScale, 0.5, "nil keeps the scale (a new mode)")
    }

    /// `simulate` with render_scale 0.5 writes the panel-sized PNG: the scaled frame doubled.
    func testSimulateShowsTheEnlargedFrameAtPanelSize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var plan = SimulationPlan(config: config(scale: 0.5), width: 480, height: 320)
        plan.until = 0.1
        let path = folder.appendingPathComponent("shot.png").path
        plan.shots = [(0.1, path)]
        let sim = try Simulator(plan: plan, log: try EventLog(path: nil))
        try sim.run()
        XCTAssertTrue(sim.session.size == (240, 160))
        let png = try PNGDecoderForTests.size(of: path)
        XCTAssertTrue(png == (480, 320), "\(png)")
    }
}

/// The size in a PNG's IHDR.
enum PNGDecoderForTests {
    static func size(of path: String) throws -> (Int, Int) {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        func be(_ o: Int) -> Int { d[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }
}
