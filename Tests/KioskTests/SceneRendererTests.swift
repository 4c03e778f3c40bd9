import KioskConfig
import Raster
import XCTest
@testable import Kiosk

/// The themed background under the cards: `background` at the top, `background_bottom` at the
/// bottom, one colour a row (given to the compositor as rows, not painted into an image).
final class SceneRendererTests: XCTestCase {
    private func firstFrame(theme: Theme, width: Int = 40, height: Int = 11) -> Canvas {
        let renderer = SceneRenderer(width: width, height: height, theme: theme)
        renderer.render([])
        return renderer.frame
    }

    func testAGradientRunsFromTheTopColourToTheBottomColourRowByRow() {
        var theme = Theme()
        theme.background = 0xFF00_6400
        theme.backgroundBottom = 0xFFC8_0A32
        let frame = firstFrame(theme: theme)
        func row(_ y: Int) -> [UInt32] { (0..<frame.width).map { frame.pixels[y * frame.stride + $0] } }
        for y in 0..<frame.height { XCTAssertEqual(Set(row(y)).count, 1, "row \(y) is one colour") }
        XCTAssertEqual(row(0)[0], 0xFF00_6400)
        XCTAssertEqual(row(10)[0], 0xFFC8_0A32)
        // Halfway: each channel halfway, rounded (0x64 + (0x00 - 0x64) / 2, …).
        XCTAssertEqual(row(5)[0], 0xFF64_3719)
    }

    func testWithoutABottomColourTheBackgroundIsFlat() {
        var theme = Theme()
        theme.background = 0xFF20_3040
        theme.backgroundBottom = nil
        let frame = firstFrame(theme: theme)
        XCTAssertEqual(Set((0..<(frame.width * frame.height)).map { frame.pixels[$0] }), [0xFF20_3040])
    }

    func testABackgroundOfOneRow() {
        XCTAssertEqual(SceneRenderer.backgroundRows(height: 1, theme: Theme()), [0xFF00_0000 | (Theme().background & 0xFF_FFFF)])
        XCTAssertEqual(SceneRenderer.backgroundRows(height: 0, theme: Theme()), [])
    }
}
