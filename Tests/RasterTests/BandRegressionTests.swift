import CarouselCore
import XCTest
@testable import Raster

/// Regressions found when the compositor first ran inside the whole program.
final class BandRegressionTests: XCTestCase {
    /// With several render threads a quad lies wholly outside some bands; those bands must skip it
    /// (it used to build a range whose lower bound passed its upper bound, and trap).
    func testQuadOutsideABandIsSkippedWithSeveralThreads() {
        let canvas = Canvas(width: 40, height: 64)
        canvas.fill(0xFF00_0000)
        let tex = Texture(width: 13, height: 5) { _, _ in 0xFFFF_FFFF }
        let quad = Quad(texture: tex, corners: [Point2(3, 2), Point2(16, 2), Point2(16, 7), Point2(3, 7)], alpha: 0.5)
        let compositor = Compositor(filter: .bilinear)
        compositor.threads = 4
        compositor.draw([quad], into: canvas)
        XCTAssertEqual(canvas[8, 4], 0xFF80_8080)
        XCTAssertEqual(canvas[8, 40], 0xFF00_0000)
    }
}
