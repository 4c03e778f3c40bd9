import CarouselCore
import Raster
import XCTest
@testable import Display

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

/// The composer's per-frame damage (Raster's `FrameComposer`), kept per buffer by `BufferDamage`
/// as an `Output` keeps it for its slots, brings every buffer up to date with the frame.
extension BufferDamageTests {
    private static let background: UInt32 = 0xFF10_2030

    private func canvas(_ w: Int, _ h: Int) -> Canvas {
        let c = Canvas(width: w, height: h)
        c.fill(Self.background)
        return c
    }

    /// Three overlapping cards of one colour each, side by side.
    private func cards() -> [Quad] {
        ([0xFFC0_3020, 0xFF20_C030, 0xFF30_20C0] as [UInt32]).enumerated().map { i, colour in
            let x = 12.0 + Double(i) * 40
            return Quad(texture: Texture(width: 8, height: 8) { _, _ in colour },
                        corners: [Point2(x, 15), Point2(x + 56, 15), Point2(x + 56, 75), Point2(x, 75)])
        }
    }

    private func moved(_ quads: [Quad], by dx: Double) -> [Quad] {
        quads.map { q in var m = q; m.corners = q.corners.map { Point2($0.x + dx, $0.y) }; return m }
    }

    private func assertSame(_ a: Canvas, _ b: Canvas, _ message: String, line: UInt = #line) {
        let bad = (0..<(a.width * a.height)).filter { a.pixels[$0] != b.pixels[$0] }
        XCTAssertTrue(bad.isEmpty, "\(message): \(bad.count) pixels differ, first at \(bad.first.map { ($0 % a.width, $0 / a.width) }.debugDescription)", line: line)
    }

    func testEachDisplayBufferReceivesWhatItMissesOfTheComposersFrames() {
        let f = FrameComposer(background: canvas(160, 90), compositor: Compositor(filter: .bilinear))
        let quads = cards()
        let buffers = [Canvas(width: 160, height: 90), Canvas(width: 160, height: 90)]
        var damage = BufferDamage(buffers: 2)
        var copied: [Int] = []
        for step in 0..<8 {
            let now = step < 5 ? moved(quads, by: Double(step) * 2.5) : moved(quads, by: 10)  // then idle
            damage.record(f.render(now))
            let b = buffers[step % 2]
            let rects = damage.take(step % 2)
            for r in rects { b.copy(from: f.frame, x: r.x, y: r.y, width: r.width, height: r.height) }
            copied.append(DamageRegion(rects).area)
            assertSame(b, f.frame, "buffer \(step % 2) after frame \(step)")
        }
        XCTAssertEqual(copied[0], 160 * 90)
        XCTAssertEqual(copied[1], 160 * 90, "the second buffer has never held a frame")
        // Frame 4 is the last move. Buffer 1 last held frame 3, so at frame 5 it still misses it;
        // buffer 0 received frame 4 itself, so after that nothing is left to copy.
        XCTAssertGreaterThan(copied[5], 0)
        XCTAssertLessThan(copied[5], 160 * 90)
        XCTAssertEqual(copied[6], 0)
        XCTAssertEqual(copied[7], 0)
    }
}
