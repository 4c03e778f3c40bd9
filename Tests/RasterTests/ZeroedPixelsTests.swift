import Glibc
import RasterCore
import XCTest

/// A new canvas or texture is transparent (every pixel zero) although its memory is not written
/// when it is made (`ZeroedPixels`: calloc): also where the memory was just freed by another one
/// full of colour, for a frame's size (fresh pages from the kernel) and a small one (malloc's
/// arenas, which calloc clears).
final class ZeroedPixelsTests: XCTestCase {
    /// Compared with a zeroed block by `memcmp`, a block at a time: a frame's two million pixels
    /// one by one take half a minute in a debug build under qemu-user (the arm64 check).
    private func assertAllZero(_ pixels: UnsafeMutablePointer<UInt32>, _ count: Int, _ what: String) {
        let zeros = [UInt32](repeating: 0, count: 4096)
        var start = 0
        while start < count {
            let n = min(zeros.count, count - start)
            if memcmp(pixels + start, zeros, n * MemoryLayout<UInt32>.size) != 0 {
                let nonZero = (start..<(start + n)).first { pixels[$0] != 0 } ?? start
                XCTFail("\(what): pixel \(nonZero) is not transparent")
                return
            }
            start += n
        }
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
