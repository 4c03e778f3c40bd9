import RasterCore
import XCTest

/// A texture's mip levels are the 2×2 box filter of the level above, each channel rounded half up
/// (`(a + b + c + d + 2) / 4`), the last row or column used twice where the level above has only
/// one: checked channel by channel against that definition, for even, odd and one-texel-wide sizes
/// and for the extreme values where a carry between channels would show.
final class MipLevelTests: XCTestCase {
    /// The definition, one channel at a time (no arrays made per texel: the arm64 check runs
    /// this in a debug build under qemu-user).
    private func expectedLevel(_ src: [UInt32], width sw: Int, height sh: Int) -> (pixels: [UInt32], width: Int, height: Int) {
        let w = max(1, sw / 2), h = max(1, sh / 2)
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let y0 = min(sh - 1, 2 * y), y1 = min(sh - 1, 2 * y + 1)
            for x in 0..<w {
                let x0 = min(sw - 1, 2 * x), x1 = min(sw - 1, 2 * x + 1)
                let a = src[y0 * sw + x0], b = src[y0 * sw + x1], c = src[y1 * sw + x0], d = src[y1 * sw + x1]
                var pixel: UInt32 = 0, shift: UInt32 = 0
                while shift < 32 {
                    let sum = ((a >> shift) & 0xFF) + ((b >> shift) & 0xFF) + ((c >> shift) & 0xFF) + ((d >> shift) & 0xFF)
                    pixel |= ((sum + 2) / 4) << shift
                    shift += 8
                }
                out[y * w + x] = pixel
            }
        }
        return (out, w, h)
    }

    private func assertChainMatchesDefinition(_ texture: Texture, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        texture.buildMipLevels()
        var above = (pixels: Array(UnsafeBufferPointer(start: texture.pixels, count: texture.width * texture.height)),
                     width: texture.width, height: texture.height)
        var chain = 0, w = texture.width, h = texture.height
        while w > 1 || h > 1 { w = max(1, w / 2); h = max(1, h / 2); chain += 1 }
        XCTAssertEqual(texture.mipLevels.count, chain, "\(what): a chain down to 1×1", file: file, line: line)
        for (index, level) in texture.mipLevels.enumerated() {
            let expected = expectedLevel(above.pixels, width: above.width, height: above.height)
            XCTAssertEqual([level.width, level.height], [expected.width, expected.height], "\(what) level \(index + 1)", file: file, line: line)
            let got = Array(UnsafeBufferPointer(start: level.pixels, count: level.width * level.height))
            if let i = (0..<got.count).first(where: { got[$0] != expected.pixels[$0] }) {
                XCTFail("\(what) level \(index + 1) texel \(i): \(String(got[i], radix: 16)) instead of \(String(expected.pixels[i], radix: 16))",
                        file: file, line: line)
                return
            }
            above = (got, level.width, level.height)
        }
    }

    func testLevelsAreTheRoundedBoxFilterForEveryShape() {
        var random = SystemRandomNumberGenerator()
        for (width, height) in [(2, 2), (5, 3), (1, 7), (7, 1), (64, 33), (301, 199)] {
            let texture = Texture(width: width, height: height)
            for i in 0..<(width * height) {
                // Premultiplied: no colour channel above the alpha.
                let alpha = UInt32.random(in: 0...255, using: &random)
                let channel = { UInt32.random(in: 0...alpha, using: &random) }
                texture.pixels[i] = alpha << 24 | channel() << 16 | channel() << 8 | channel()
            }
            assertChainMatchesDefinition(texture, "\(width)x\(height) random")
        }
    }

    func testExtremeValuesDoNotCarryIntoTheNextChannel() {
        for value: UInt32 in [0xFFFF_FFFF, 0xFF00_FF00, 0x00FF_00FF, 0x0101_0101, 0xFE01_FE01] {
            let texture = Texture(width: 6, height: 5) { x, y in (x + y) % 3 == 0 ? value : (x % 2 == 0 ? 0 : 0x0303_0303) }
            assertChainMatchesDefinition(texture, "pattern of \(String(value, radix: 16))")
        }
        let white = Texture(width: 9, height: 4) { _, _ in 0xFFFF_FFFF }
        white.buildMipLevels()
        XCTAssertTrue(white.mipLevels.allSatisfy { level in (0..<(level.width * level.height)).allSatisfy { level.pixels[$0] == 0xFFFF_FFFF } },
                      "opaque white stays opaque white at every level")
    }
}
