import CarouselCore
import XCTest
@testable import Raster
@testable import RasterKernels

final class CompositorTests: XCTestCase {
    func testBlitCopiesTexelsExactlyWithoutBleeding() {
        let tex = Texture(width: 4, height: 3) { x, y in 0xFF00_0007 | UInt32(x * 40) << 16 | UInt32(y * 50) << 8 }
        let c = RT.canvas(8, 6)
        let q = Quad(texture: tex, corners: RT.rect(2, 1, 6, 4))
        XCTAssertEqual(PreparedQuad(q, clip: c.bounds, filter: .bilinear)?.sampler.kind, .blit)
        Compositor().draw([q], into: c)
        for y in 0..<6 {
            for x in 0..<8 {
                let inside = (2..<6).contains(x) && (1..<4).contains(y)
                XCTAssertEqual(c[x, y], inside ? tex[x - 2, y - 1] : RT.background, "pixel \(x),\(y)")
            }
        }
    }

    func testBlitWithAlphaBlendsOverBackground() {
        let c = RT.canvas(4, 4, RT.black)
        Compositor().draw([Quad(texture: RT.solid(2, 2, 0xFFFF_FFFF), corners: RT.rect(1, 1, 3, 3), alpha: 0.5)], into: c)
        XCTAssertTrue([127, 128].contains(RT.channel(c[1, 1], 16)), "\(String(c[1, 1], radix: 16))")
        XCTAssertEqual(c[0, 0], RT.black)
        XCTAssertEqual(c[3, 3], RT.black)
    }

    func testHalfPixelEdgesGetHalfCoverageAndInteriorIsExact() {
        let c = RT.canvas(9, 7, RT.black)
        let q = Quad(texture: RT.solid(4, 4, 0xFFFF_FFFF), corners: RT.rect(2.5, 1, 6.5, 5))
        XCTAssertEqual(PreparedQuad(q, clip: c.bounds, filter: .bilinear)?.sampler.kind, .axisAligned)
        Compositor().draw([q], into: c)
        for y in 1..<5 {
            XCTAssertEqual(c[1, y], RT.black)
            XCTAssertTrue([127, 128].contains(RT.channel(c[2, y], 8)), "left edge \(String(c[2, y], radix: 16))")
            for x in 3...5 { XCTAssertEqual(c[x, y], 0xFFFF_FFFF, "interior \(x),\(y)") }
            XCTAssertTrue([127, 128].contains(RT.channel(c[6, y], 8)), "right edge \(String(c[6, y], radix: 16))")
            XCTAssertEqual(c[7, y], RT.black)
        }
        for x in 0..<9 { XCTAssertEqual(c[x, 0], RT.black); XCTAssertEqual(c[x, 5], RT.black) }
    }

    func testCornerPixelGetsQuarterCoverage() {
        let c = RT.canvas(9, 9, RT.black)
        Compositor().draw([Quad(texture: RT.solid(4, 4, 0xFFFF_FFFF), corners: RT.rect(2.5, 2.5, 6.5, 6.5))], into: c)
        XCTAssertTrue((63...64).contains(RT.channel(c[2, 2], 0)), "\(String(c[2, 2], radix: 16))")
        XCTAssertTrue((63...64).contains(RT.channel(c[6, 6], 0)))
        XCTAssertTrue((127...128).contains(RT.channel(c[4, 2], 0)))
        XCTAssertEqual(c[4, 4], 0xFFFF_FFFF)
        XCTAssertEqual(c[1, 1], RT.black)
    }

    func testTiltedEdgeIsAntiAliasedNotStepped() {
        // A slightly rotated square: pixels along its top edge take intermediate values.
        let c = RT.canvas(40, 40, RT.black)
        let corners = [Point2(5, 8), Point2(35, 11), Point2(32, 35), Point2(2, 32)]
        Compositor().draw([Quad(texture: RT.solid(8, 8, 0xFFFF_FFFF), corners: corners)], into: c)
        let partial = (5..<35).filter { x in (0..<40).contains { y in (20...235).contains(RT.channel(c[x, y], 8)) } }
        XCTAssertGreaterThan(partial.count, 25, "most columns cross the tilted top edge with partial coverage")
    }

    func testMagnifiedBilinearMatchesReference() {
        // Two texels stretched over 8 pixels: interpolation weights and the texel-wide edge fade.
        let tex = Texture(width: 2, height: 1) { x, _ in x == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
        let quads = [Quad(texture: tex, corners: RT.rect(0, 2, 8, 3))]
        let c = RT.canvas(8, 5, 0xFF40_4040)
        Compositor(filter: .bilinear).draw(quads, into: c)
        let ref = RT.reference(quads, width: 8, height: 5, background: 0xFF40_4040)
        for y in 0..<5 { for x in 0..<8 { XCTAssertLessThanOrEqual(RT.diff(c[x, y], ref[x, y]), 1, "pixel \(x),\(y)") } }
        // By hand: pixel 3's centre is 3/8 of the way from the black to the white texel centre.
        XCTAssertTrue((95...96).contains(RT.channel(c[3, 2], 0)), "\(String(c[3, 2], radix: 16))")
        // Pixel 1 samples the black texel (clamped); the texel-wide edge fade leaves 1/8 of the grey.
        XCTAssertEqual(c[1, 2], 0xFF08_0808)
    }

    func testPerspectiveGoldenAgainstDoublePrecisionReference() {
        // Two overlapping cards through projective maps (one translucent), compared with
        // ref_render's math: inside the cards at most 1 level off; edges differ only by the AA
        // model (coverage instead of a one-texel fade), so the mean stays tiny.
        let a = BenchScene.patternTexture(width: 64, height: 48, pattern: .card, variant: 0)
        let b = BenchScene.patternTexture(width: 64, height: 48, pattern: .photo, variant: 1)
        let quads = [
            Quad(texture: b, corners: [Point2(4.3, 10.2), Point2(60.7, 3.1), Point2(58.2, 70.4), Point2(6.1, 61.9)], alpha: 1),
            Quad(texture: a, corners: [Point2(30.25, 20.5), Point2(90.5, 14.75), Point2(92.0, 66.5), Point2(28.5, 58.0)], alpha: 0.7),
        ]
        let w = 100, h = 80
        let c = RT.canvas(w, h)
        Compositor(filter: .bilinear).draw(quads, into: c)
        let ref = RT.reference(quads, width: w, height: h, background: RT.background)
        var total = 0, peak = 0, interiorPeak = 0
        let inner = [Point2(8, 14), Point2(56, 8), Point2(54, 65), Point2(10, 57)]  // well inside quad 0
        for y in 0..<h {
            for x in 0..<w {
                let d = RT.diff(c[x, y], ref[x, y])
                total += d
                peak = max(peak, d)
                if RT.contains(inner, Point2(Double(x) + 0.5, Double(y) + 0.5)) && !RT.near(quads[1].corners, x, y) {
                    interiorPeak = max(interiorPeak, d)
                }
            }
        }
        XCTAssertLessThanOrEqual(interiorPeak, 1)
        XCTAssertLessThan(Double(total) / Double(w * h), 0.5)
        XCTAssertLessThanOrEqual(peak, 80)
    }

    func testBackFaceIsCulledOnlyWhenAsked() {
        let tex = Texture(width: 2, height: 1) { x, _ in x == 0 ? 0xFFFF_0000 : 0xFF00_00FF }
        // Mirrored: the texture's left edge is on the right of the screen.
        let mirrored = [Point2(8, 0), Point2(0, 0), Point2(0, 4), Point2(8, 4)]
        let culled = RT.canvas(8, 4)
        Compositor().draw([Quad(texture: tex, corners: mirrored, cullsBackFace: true)], into: culled)
        XCTAssertTrue((0..<32).allSatisfy { culled.pixels[$0] == RT.background })
        let shown = RT.canvas(8, 4)
        Compositor().draw([Quad(texture: tex, corners: mirrored)], into: shown)
        XCTAssertGreaterThan(RT.channel(shown[1, 2], 0), 200, "left of the screen shows the texture's right (blue) texel")
        XCTAssertLessThan(RT.channel(shown[1, 2], 16), 20)
        XCTAssertGreaterThan(RT.channel(shown[6, 2], 16), 190)
        let front = RT.canvas(8, 4)
        Compositor().draw([Quad(texture: tex, corners: RT.rect(0, 0, 8, 4), cullsBackFace: true)], into: front)
        XCTAssertGreaterThan(RT.channel(front[1, 2], 16), 190)
    }

    func testOcclusionCullingChangesNothingButWork() {
        let quads = RT.overlappingCards()
        let with = RT.canvas(160, 90), without = RT.canvas(160, 90)
        let culling = Compositor(filter: .bilinear)
        culling.draw(quads, into: with)
        let plain = Compositor(filter: .bilinear)
        plain.occlusionCulling = false
        plain.draw(quads, into: without)
        let bad = (0..<(160 * 90)).filter { with.pixels[$0] != without.pixels[$0] }
        XCTAssertTrue(bad.isEmpty, "\(bad.count) differ: " + bad.prefix(8).map {
            "(\($0 % 160),\($0 / 160)) \(String(with.pixels[$0], radix: 16)) vs \(String(without.pixels[$0], radix: 16))"
        }.joined(separator: " "))
        XCTAssertLessThan(culling.shadedPixels, plain.shadedPixels * 3 / 4)
    }

    func testBandsOnThreadsGiveTheSameFrame() {
        let quads = RT.overlappingCards()
        let one = RT.canvas(160, 90), three = RT.canvas(160, 90)
        Compositor(threads: 1).draw(quads, into: one)
        Compositor(threads: 3).draw(quads, into: three)
        XCTAssertTrue((0..<(160 * 90)).allSatisfy { one.pixels[$0] == three.pixels[$0] })
    }

    func testClipLimitsTouchedPixels() {
        let c = RT.canvas(20, 20)
        let clip = PixelRect(x: 5, y: 6, width: 7, height: 3)
        Compositor().draw([Quad(texture: RT.solid(4, 4, 0xFFFF_FFFF), corners: RT.rect(0, 0, 20, 20))], into: c, clip: clip)
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = (5..<12).contains(x) && (6..<9).contains(y)
                XCTAssertEqual(c[x, y], inside ? 0xFFFF_FFFF : RT.background, "pixel \(x),\(y)")
            }
        }
    }

    /// A card magnified 200 times along one axis, its edge ramps one texel wide, and one with an
    /// acute corner: nothing is drawn outside `Quad.bounds` (what damage tracking redraws), and
    /// a redraw clipped to any few pixels gives the whole frame's pixels there. (The fuzzer found
    /// a sliver whose ramp reached 5 px past its box, drawn in the whole frame but not in a
    /// clipped redraw.)
    func testNothingIsDrawnOutsideTheBoundsAndClippedRedrawsMatch() {
        let tex = Texture(width: 17, height: 10) { x, y in 0xFF00_0000 | UInt32(x * 15) << 16 | UInt32(y * 25) << 8 | 0x40 }
        let sliver = Quad(texture: tex, corners: [Point2(17.608, 2200.43), Point2(17.767, 37.367),
                                                  Point2(3.2308, 27.54), Point2(-19.09, 13.145)])
        let acute = Quad(texture: tex, corners: [Point2(2, 40), Point2(24, 42), Point2(24, 43.5), Point2(2, 40.4)])
        let backdrop = Backdrop.color(RT.background)
        for quad in [sliver, acute] {
            let full = RT.canvas(25, 45, 0)
            Compositor(filter: .bilinear).draw([quad], into: full, backdrop: backdrop)
            let bounds = quad.bounds
            for y in 0..<45 {
                for x in 0..<25 where !(bounds.x..<bounds.maxX).contains(x) || !(bounds.y..<bounds.maxY).contains(y) {
                    XCTAssertEqual(full[x, y], RT.background, "pixel \(x),\(y) outside \(bounds)")
                }
            }
            for clip in [PixelRect(x: 19, y: 41, width: 5, height: 1), PixelRect(x: 0, y: 30, width: 25, height: 15),
                         PixelRect(x: 17, y: 0, width: 8, height: 45)] {
                let part = RT.canvas(25, 45, 0)
                part.copy(from: full, x: 0, y: 0, width: 25, height: 45)
                Compositor(filter: .bilinear).draw([quad], into: part, clip: clip, backdrop: backdrop)
                XCTAssertTrue((0..<(25 * 45)).allSatisfy { full.pixels[$0] == part.pixels[$0] }, "redraw inside \(clip)")
            }
        }
    }

    func testMipmapAveragesMinifiedDetailAndBilinearDoesNot() {
        let checker = Texture(width: 64, height: 64) { x, y in (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }
        checker.buildMipLevels()
        // 64 texels over 21 pixels: about 3 texels per pixel, so level 1 (32×32).
        let q = Quad(texture: checker, corners: RT.rect(0.3, 0.3, 21.3, 21.3))
        let clip = PixelRect(x: 0, y: 0, width: 24, height: 24)
        XCTAssertEqual(PreparedQuad(q, clip: clip, filter: .mipmap)?.level, 1)
        XCTAssertEqual(PreparedQuad(q, clip: clip, filter: .bilinear)?.level, 0)
        let small = Quad(texture: checker, corners: RT.rect(0, 0, 8, 8))
        XCTAssertEqual(PreparedQuad(small, clip: clip, filter: .mipmap)?.level, 3)
        func spread(_ f: TextureFilter) -> Int {
            let c = RT.canvas(24, 24, RT.black)
            Compositor(filter: f).draw([q], into: c)
            let values = (3..<18).flatMap { y in (3..<18).map { x in RT.channel(c[x, y], 8) } }
            return values.max()! - values.min()!
        }
        XCTAssertLessThanOrEqual(spread(.mipmap), 4)
        XCTAssertGreaterThan(spread(.bilinear), 30)
    }

    func testBadQuadsDrawNothingAndDoNotCrash() {
        let tex = RT.solid(4, 4, 0xFFFF_FFFF)
        let quads = [
            Quad(texture: tex, corners: [Point2(.nan, 0), Point2(5, 0), Point2(5, 5), Point2(0, 5)]),
            Quad(texture: tex, corners: [Point2(0, 0), Point2(5, 5), Point2(5, 0), Point2(0, 5)]),  // bow-tie
            Quad(texture: tex, corners: RT.rect(0, 0, 5, 5), alpha: 0),
            Quad(texture: tex, corners: [Point2(0, 0), Point2(5, 0)]),
            Quad(texture: tex, corners: RT.rect(3, 3, 3, 3)),  // flat
            Quad(texture: tex, corners: RT.rect(-1e9, -1e9, 1e9, 1e9)),
        ]
        let c = RT.canvas(8, 8)
        Compositor().draw(quads, into: c)
        XCTAssertTrue((0..<64).allSatisfy { c.pixels[$0] == RT.background })
    }
}

extension RT {
    /// A coverflow-like row of overlapping opaque cards, some projective, back to front.
    static func overlappingCards() -> [Quad] {
        (0..<5).map { i in
            let tex = BenchScene.patternTexture(width: 96, height: 72, pattern: .card, variant: i)
            let x = 10.0 + Double(i) * 22, tilt = Double(2 - i) * 3
            return Quad(texture: tex, corners: [Point2(x, 20 - tilt), Point2(x + 60, 20 + tilt),
                                                 Point2(x + 60, 70 - tilt), Point2(x, 70 + tilt)])
        }
    }

    /// Point in convex polygon (either winding).
    static func contains(_ poly: [Point2], _ p: Point2) -> Bool {
        var sign = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let z = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if z * sign < 0 { return false }
            if z != 0 { sign = z }
        }
        return true
    }

    /// True when pixel (x, y) lies within 2 px of the polygon's outline.
    static func near(_ poly: [Point2], _ x: Int, _ y: Int) -> Bool {
        let p = Point2(Double(x) + 0.5, Double(y) + 0.5)
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let t = max(0, min(1, ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (len * len)))
            let dx = a.x + t * (b.x - a.x) - p.x, dy = a.y + t * (b.y - a.y) - p.y
            if (dx * dx + dy * dy).squareRoot() < 2.5 { return true }
        }
        return false
    }
}
