import CarouselCore
import XCTest
@testable import Raster
@testable import RasterKernels

/// Pooled textures (issue 28 §6): a texture is used again only once nobody else holds it, its
/// generation tells the compositor it is another picture, and mip levels made on demand equal
/// the ones made up front.
final class TexturePoolTests: XCTestCase {
    func testATextureIsUsedAgainOnlyOnceNobodyElseHoldsIt() {
        let pool = TexturePool(width: 8, height: 4, capacity: 3)
        var first: Texture? = pool.take().texture
        let firstID = ObjectIdentifier(first!)
        let held = pool.take()
        XCTAssertTrue(held.isNew)
        XCTAssertFalse(held.texture === first, "a texture still held is never handed out again")
        first = nil
        let again = pool.take()
        XCTAssertFalse(again.isNew)
        XCTAssertEqual(ObjectIdentifier(again.texture), firstID, "the texture let go is used again")
        XCTAssertEqual(again.texture.generation, 1, "rewriting it moves its generation on")
        XCTAssertEqual(pool.allocations, 2)
    }

    func testNoTextureIsMadePerFrameWhenFramesAreLetGo() {
        let pool = TexturePool(width: 16, height: 16, capacity: 3)
        var shown: Texture?
        for i in 0..<100 {
            let t = pool.take().texture
            t.pixels[0] = UInt32(i)
            shown = t   // the previous frame is let go once the next is shown
        }
        XCTAssertEqual(shown?.pixels[0], 99)
        XCTAssertEqual(pool.allocations, 2, "the frame shown and the one being drawn")
    }

    func testBeyondItsCapacityThePoolMakesTexturesWithoutKeepingThem() {
        let pool = TexturePool(width: 4, height: 4, capacity: 2)
        let held = (0..<4).map { _ in pool.take().texture }
        XCTAssertEqual(Set(held.map(ObjectIdentifier.init)).count, 4)
        XCTAssertEqual(pool.allocations, 4)
    }

    func testMipLevelsOnDemandEqualTheOnesMadeUpFrontAndAreRemadeAfterARewrite() {
        let fill: (Int, Int) -> UInt32 = { x, y in 0xFF00_0000 | UInt32(x * 7 % 256) << 16 | UInt32(y * 13 % 256) << 8 | UInt32((x ^ y) & 0xFF) }
        let eager = Texture(width: 37, height: 20, fill: fill)
        eager.buildMipLevels()
        let lazy = Texture(width: 37, height: 20, fill: fill)
        lazy.buildMipLevelsOnDemand()
        XCTAssertTrue(lazy.mipLevels.isEmpty, "nothing is made until asked for")
        XCTAssertEqual(lazy.mipLevelCount, eager.mipLevels.count)
        for level in 1...eager.mipLevels.count {
            let a = eager.mipLevels[level - 1], b = lazy.mipLevel(level)
            XCTAssertEqual(pixels(a), pixels(b), "level \(level)")
        }
        // Rewritten in place: the levels are made again from the new pixels, in the same memory.
        let level1 = lazy.mipLevel(1)
        lazy.willRewritePixels()
        for i in 0..<(37 * 20) { lazy.pixels[i] = 0xFF20_4060 }
        XCTAssertTrue(lazy.mipLevel(1) === level1, "the level's texture is reused")
        XCTAssertTrue(pixels(lazy.mipLevel(2)).allSatisfy { $0 == 0xFF20_4060 })
        XCTAssertEqual(lazy.mipLevelCount, eager.mipLevels.count)
    }

    func testTheCompositorPicksAnOnDemandLevelAsItWouldAMadeOne() {
        let checker = Texture(width: 64, height: 64) { x, y in (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }
        checker.buildMipLevelsOnDemand()
        let clip = PixelRect(x: 0, y: 0, width: 24, height: 24)
        XCTAssertEqual(PreparedQuad(Quad(texture: checker, corners: RT.rect(0, 0, 8, 8)), clip: clip, filter: .mipmap)?.level, 3)
        XCTAssertEqual(checker.mipLevels.count, 3, "only the levels up to the one drawn are made")
    }

    func testARewrittenTextureDamagesItsQuadAlthoughItIsTheSameObject() {
        let f = FrameComposer(background: RT.canvas(40, 30), compositor: Compositor(filter: .bilinear))
        let t = Texture(width: 10, height: 10) { _, _ in 0xFF00_00FF }
        let quads = [Quad(texture: t, corners: RT.rect(5, 5, 15, 15))]
        f.render(quads)
        XCTAssertEqual(f.render(quads), [])
        t.willRewritePixels()
        for i in 0..<100 { t.pixels[i] = 0xFFFF_0000 }
        XCTAssertEqual(f.render(quads), [quads[0].bounds], "the quad is drawn again")
        XCTAssertEqual(f.frame[8, 8], 0xFFFF_0000)
    }

    private func pixels(_ t: Texture) -> [UInt32] { Array(UnsafeBufferPointer(start: t.pixels, count: t.width * t.height)) }
}
