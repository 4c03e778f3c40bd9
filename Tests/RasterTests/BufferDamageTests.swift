import CarouselCore
import Raster
import XCTest

final class BufferDamageTests: XCTestCase {
    func testEachBufferKeepsWhatItMissed() {
        var d = BufferDamage(buffers: 3)
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 50, y: 50, width: 5, height: 5)
        d.record([a])
        XCTAssertEqual(d.take(0), [a])
        d.record([b])
        XCTAssertEqual(d.take(1), [a, b])
        XCTAssertEqual(d.take(0), [b])
        XCTAssertEqual(d.take(2), [a, b])
        XCTAssertEqual(d.take(2), [])
    }

    func testContainedRectsAreDroppedAndLongHistoriesCollapse() {
        var d = BufferDamage(buffers: 2, limit: 4)
        d.record([PixelRect(x: 2, y: 2, width: 2, height: 2)])
        d.record([PixelRect(x: 0, y: 0, width: 10, height: 10)])
        d.record([PixelRect(x: 1, y: 1, width: 1, height: 1)])
        XCTAssertEqual(d.take(0), [PixelRect(x: 0, y: 0, width: 10, height: 10)])
        for i in 0..<6 { d.record([PixelRect(x: i * 20, y: 0, width: 5, height: 5)]) }
        // Five rectangles exceed the limit and collapse into one; the sixth is kept apart.
        XCTAssertEqual(d.take(1), [PixelRect(x: 0, y: 0, width: 85, height: 10), PixelRect(x: 100, y: 0, width: 5, height: 5)])
        d.invalidateAll(PixelRect(x: 0, y: 0, width: 640, height: 480))
        XCTAssertEqual(d.take(0), [PixelRect(x: 0, y: 0, width: 640, height: 480)])
    }
}

extension BufferDamageTests {
    /// A card moved a few pixels: its old and new places overlap, and their bounding box costs
    /// less than both apart, so they become one rectangle; far-apart ones stay apart.
    func testOverlappingRectanglesMergeWhenThatCostsNoMorePixels() {
        var d = BufferDamage(buffers: 1)
        let card = PixelRect(x: 100, y: 50, width: 200, height: 150)
        d.record([card])
        d.record([PixelRect(x: 107, y: 50, width: 200, height: 150)])
        d.record([PixelRect(x: 900, y: 0, width: 10, height: 10)])
        XCTAssertEqual(d.take(0), [PixelRect(x: 100, y: 50, width: 207, height: 150), PixelRect(x: 900, y: 0, width: 10, height: 10)])
        // Diagonal neighbours: the bounding box would cost more than both, so they stay apart.
        d.record([PixelRect(x: 0, y: 0, width: 8, height: 8)])
        d.record([PixelRect(x: 6, y: 6, width: 8, height: 8)])
        XCTAssertEqual(d.take(0).count, 2)
    }
}
