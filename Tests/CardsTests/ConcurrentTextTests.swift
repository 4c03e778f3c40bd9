import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// Text drawn on several threads at once, the way the kiosk's first frame draws it (card
/// workers draw faces while the main loop draws the title overlay): every result must equal the
/// same text drawn alone (see `FontLock`; cairo 1.16's scaled-font cache is not safe otherwise).
final class ConcurrentTextTests: XCTestCase {
    /// Blocks in several fonts, sizes and weights, so scaled fonts are made and released while
    /// other threads use theirs.
    let blocks: [TextBlock] = (0..<12).map { i in
        TextBlock(text: "Item \(i) Kiosk — مرحبا 你好", font: ["DejaVu Sans", "Sans", "DejaVu Serif", "Monospace"][i % 4],
                  size: Double(9 + 7 * i), color: 0xFFFF_FFFF, alignment: "center", lines: 2, bold: i % 3 == 0)
    }

    /// The block drawn into a fresh 320×160 texture.
    func draw(_ block: TextBlock) -> [UInt32] {
        let texture = Texture(width: 320, height: 160)
        do {
            let ctx = CairoContext(texture: texture)
            block.layout(on: ctx, width: 300).draw(on: ctx, x: 10, y: 4, shadow: true)
            ctx.flush()
        }
        return Array(UnsafeBufferPointer(start: texture.pixels, count: texture.width * texture.height))
    }

    func testTextDrawnOnSeveralThreadsAtOnceEqualsTextDrawnAlone() {
        let reference = blocks.map(draw)
        XCTAssertTrue(reference.allSatisfy { $0.contains { $0 != 0 } }, "every block drew something")
        let threads = 4, rounds = 6
        var mismatches = [Int](repeating: 0, count: threads)
        mismatches.withUnsafeMutableBufferPointer { counts in
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                for round in 0..<rounds {
                    for k in 0..<blocks.count {
                        let i = (k * (t + 1) + round) % blocks.count     // each thread in its own order
                        if draw(blocks[i]) != reference[i] { counts[t] += 1 }
                    }
                }
            }
        }
        XCTAssertEqual(mismatches, [Int](repeating: 0, count: threads), "blocks that came out different on a thread")
    }

    func testCardFacesAndTheTitleOverlayAtOnceEqualThemDrawnAlone() throws {
        let items = (0..<6).map { ItemConfig(id: "i\($0)", title: "Item \($0)", subtitle: "Subtitle \($0)") }
        let renderer = CardFaceRenderer()
        let faces = items.map { renderer.render($0, width: 240, height: 180) }
        let title = try XCTUnwrap(OverlayRenderer(style: OverlayStyle(), screenWidth: 800, screenHeight: 480)
            .title(for: items[2])).texture
        func pixels(_ t: Texture) -> [UInt32] { Array(UnsafeBufferPointer(start: t.pixels, count: t.width * t.height)) }
        let faceReference = faces.map(pixels), titleReference = pixels(title)
        var different = [String](repeating: "", count: 3)
        different.withUnsafeMutableBufferPointer { out in
            DispatchQueue.concurrentPerform(iterations: 3) { t in
                for round in 0..<4 {
                    if t == 0 {
                        // The main loop's part: a fresh overlay renderer draws the title again.
                        let o = OverlayRenderer(style: OverlayStyle(), screenWidth: 800, screenHeight: 480).title(for: items[2])
                        if o.map({ pixels($0.texture) }) != titleReference { out[t] += "title(round \(round)) " }
                    } else {
                        for (i, item) in items.enumerated() where pixels(renderer.render(item, width: 240, height: 180)) != faceReference[i] {
                            out[t] += "card \(i)(round \(round)) "
                        }
                    }
                }
            }
        }
        XCTAssertEqual(different, ["", "", ""])
    }
}
