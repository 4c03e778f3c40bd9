import RasterCore
import XCTest

/// A new canvas or texture is transparent (every pixel zero) although its memory is not written
/// when it is made (`ZeroedPixels`: calloc): also where the memory was just freed by another one
/// full of colour, for a frame's size (fresh pages from the kernel) and a small one (malloc's
/// arenas, which calloc clears).
final class ZeroedPixelsTests: XCTestCase {
    private func assertAllZero(_ pixels: UnsafeMutablePointer<UInt32>, _ count: Int, _ what: String) {
        let nonZero = (0..<count).first { pixels[$0] != 0 }
        XCTAssertNil(nonZero, "\(what): pixel \(nonZero ?? -1) is not transparent")
    }

    func testNewCanvasesAreTransparentAfterOthersWereFilled() {
        for (width, height) in [(1920, 1080), (12, 10), (1, 1)] {
            for _ in 0..<3 {
                let used = Canvas(width: width, height: height)
                used.pixels.update(repeating: 0xFF20_4060, count: width * height)
            }
            let canvas = Canvas(width: width, height: height)
            assertAllZero(canvas.pixels, width * height, "canvas \(width)x\(height)")
        }
    }

    func testNewTexturesAreTransparentAfterOthersWereFilled() {
        for (width, height) in [(800, 600), (7, 5)] {
            for _ in 0..<3 {
                let used = Texture(width: width, height: height)
                used.pixels.update(repeating: 0xFFFF_FFFF, count: width * height)
            }
            let texture = Texture(width: width, height: height)
            assertAllZero(texture.pixels, width * height, "texture \(width)x\(height)")
        }
    }
}
