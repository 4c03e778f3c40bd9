import CarouselCore
import XCTest
@testable import Raster
@testable import RasterKernels

/// The separable path for axis-aligned quads (`RowFilterCache` + `SpanShader.separable`) against
/// the single-pass loop and the double-precision reference.
final class SeparableAxisAlignedTests: XCTestCase {
    /// Premultiplied, with varying alpha, so that every channel and weight matters.
    private static let pattern = Texture(width: 37, height: 23) { x, y in
        let a = UInt32(120 + (x * 7 + y * 5) % 136)
        let r = (UInt32(x * 29 + y * 3) % 256) * a / 255, g = (UInt32(x * 5 + y * 31) % 256) * a / 255
        let b = (UInt32((x ^ y) * 11) % 256) * a / 255
        return a << 24 | r << 16 | g << 8 | b
    }

    /// Two axis-aligned quads sharing rows (one minified, one magnified), with and without alpha.
    private static let quads = [
        Quad(texture: pattern, corners: RT.rect(3.25, 2.5, 36.5, 23.75), alpha: 0.7),
        Quad(texture: RT.solid(5, 4, 0xFF80_4020), corners: RT.rect(30, 10, 41, 18)),
        Quad(texture: pattern, corners: RT.rect(40.5, 1.25, 103.75, 40.5)),
    ]

    func testQuadsUnderTestTakeTheAxisAlignedPath() {
        for q in Self.quads {
            XCTAssertEqual(PreparedQuad(q, clip: PixelRect(x: 0, y: 0, width: 110, height: 44), filter: .bilinear)?.sampler.kind,
                           .axisAligned)
        }
    }

    /// Long interior runs go through the row cache; drawing the frame in 5-pixel-wide strips
    /// forces every run through the single-pass loop instead. The frames must be bit-identical.
    func testSeparableMatchesSinglePassBitForBit() {
        let whole = RT.canvas(110, 44), strips = RT.canvas(110, 44)
        Compositor(filter: .bilinear).draw(Self.quads, into: whole)
        let narrow = Compositor(filter: .bilinear)
        for x in stride(from: 0, to: 110, by: 5) {
            narrow.draw(Self.quads, into: strips, clip: PixelRect(x: x, y: 0, width: 5, height: 44))
        }
        let bad = (0..<(110 * 44)).filter { whole.pixels[$0] != strips.pixels[$0] }
        XCTAssertTrue(bad.isEmpty, "\(bad.count) differ: " + bad.prefix(8).map {
            "(\($0 % 110),\($0 / 110)) \(String(whole.pixels[$0], radix: 16)) vs \(String(strips.pixels[$0], radix: 16))"
        }.joined(separator: " "))
    }

    /// Inside the quads (away from the anti-aliased outline) the separable result is within one
    /// level of the double-precision reference, minified and magnified, with alpha.
    func testSeparableInteriorMatchesReference() {
        let quads = [Self.quads[0], Self.quads[2]]
        let c = RT.canvas(110, 44)
        Compositor(filter: .bilinear).draw(quads, into: c)
        let ref = RT.reference(quads, width: 110, height: 44, background: RT.background)
        var checked = 0
        for y in 0..<44 {
            for x in 0..<110 {
                let inFirst = (5..<35).contains(x) && (4..<22).contains(y)
                let inSecond = (43..<102).contains(x) && (3..<39).contains(y)
                guard inFirst || inSecond else { continue }
                checked += 1
                XCTAssertLessThanOrEqual(RT.diff(c[x, y], ref[x, y]), 1, "pixel \(x),\(y)")
            }
        }
        XCTAssertGreaterThan(checked, 2000)
    }

    /// The cache holds rows of one quad only: a second quad with another texture at the same
    /// geometry must not reuse the first one's rows. Drawing one screen row at a time makes
    /// both quads ask for the very same texture rows and columns back to back.
    func testRowsAreNotReusedAcrossQuads() {
        let other = Texture(width: 37, height: 23) { x, y in 0xFF00_0000 | UInt32((x * 3 + y * 7) % 256) << 8 }
        let corners = RT.rect(0, 0, 60, 30)
        let first = Quad(texture: Self.pattern, corners: corners, alpha: 0.5)
        let second = Quad(texture: other, corners: corners, alpha: 0.5)
        let both = RT.canvas(60, 30), separate = RT.canvas(60, 30)
        let shared = Compositor(filter: .bilinear)
        for y in 0..<30 {
            let row = PixelRect(x: 0, y: y, width: 60, height: 1)
            shared.draw([first, second], into: both, clip: row)
            Compositor(filter: .bilinear).draw([first], into: separate, clip: row)
            Compositor(filter: .bilinear).draw([second], into: separate, clip: row)
        }
        let bad = (0..<(60 * 30)).filter { both.pixels[$0] != separate.pixels[$0] }
        XCTAssertTrue(bad.isEmpty, "\(bad.count) pixels differ")
    }
}
