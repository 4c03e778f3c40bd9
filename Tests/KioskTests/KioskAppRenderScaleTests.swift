import CarouselCore
import Display
import Foundation
import KioskConfig
import Logging
import Raster
import XCTest
@testable import Kiosk

/// `render_scale` in the loop: a reload applies a new scale at once (display and scene sized
/// again), and `"auto"` switches to ½ after slow drag frames, only when the finger is up.
final class KioskAppRenderScaleTests: ConfigFolderTestCase {
    override var folderPrefix: String { "render-scale" }

    func file(scale: String) -> String {
        "[display]\nrender_scale = \(scale)\n[carousel]\ntype = \"linear\"\nitem_size = [160, 120]\n"
            + (0..<3).map { "[[item]]\nid = \"i\($0)\"\ntitle = \"Item \($0)\"\n" }.joined()
    }

    func makeApp(scale: String) throws -> (KioskApp, HeadlessDisplay) {
        try file(scale: scale).write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let display = HeadlessDisplay(width: 480, height: 320, renderScale: config.display.renderScale.initial)
        let app = try KioskApp(configPath: path, config: config, display: display, inputs: [], log: try EventLog(path: nil),
                               logger: Logger(label: "test"), notifier: nil)
        return (app, display)
    }

    func testAReloadAppliesANewScaleAtOnce() throws {
        let (app, display) = try makeApp(scale: "1")
        _ = app.beforeWait()
        XCTAssertTrue(app.session.size == (480, 320))
        try file(scale: "0.5").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertTrue(display.size == (240, 160), "the display draws at ½")
        XCTAssertTrue(app.session.size == (240, 160), "the scene was sized again")
        XCTAssertTrue(app.session.screenSize == (480, 320), "the layout keeps the screen's size")
        XCTAssertTrue(app.screenSize == (480, 320), "state reports the screen")
        _ = app.beforeWait()
        // The screen shows the frame doubled, whole.
        let frame = app.session.frame
        for y in stride(from: 0, to: 320, by: 7) { for x in stride(from: 0, to: 480, by: 5) where display.screen[x, y] != frame[x / 2, y / 2] {
            return XCTFail("\(x),\(y)")
        } }
        // Back to 1.
        try file(scale: "1.0").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertTrue(app.session.size == (480, 320))
    }

    func testAutoSwitchesToHalfAfterSlowDragFramesOnlyWhenTheFingerIsUp() throws {
        let (app, display) = try makeApp(scale: "\"auto\"")
        XCTAssertEqual(display.renderScale, 1, "auto starts at full size")
        app.behavior.input(.touchDown(slot: 0, x: 240, y: 160), now: 0.1)
        app.behavior.input(.touchMotion(slot: 0, x: 200, y: 160), now: 0.15)
        XCTAssertTrue(app.session.isTracking)
        for _ in 0..<8 { app.renderScaleFrame(duration: 0.030) }   // 30 ms: misses 60 Hz
        app.renderScaleBetweenGestures()
        XCTAssertEqual(display.renderScale, 1, "never mid-drag")
        XCTAssertTrue(app.session.size == (480, 320))
        app.behavior.input(.touchUp(slot: 0), now: 0.2)
        XCTAssertFalse(app.session.isTracking)
        app.renderScaleBetweenGestures()
        XCTAssertEqual(display.renderScale, 0.5, "switched between gestures")
        XCTAssertTrue(app.session.size == (240, 160))
        XCTAssertEqual(app.scaleGovernor?.scale, 0.5)
        // A reload that keeps "auto" changes nothing.
        XCTAssertTrue(app.reload(reason: "test"))
        XCTAssertEqual(display.renderScale, 0.5)
    }
}
