import Raster
import XCTest
@testable import Cards

final class CardCacheTests: XCTestCase {
    func tex() -> Texture { Texture(width: 10, height: 10) }   // 400 bytes

    func testStaysWithinBoundEvictingFarthestFromFocus() {
        var cache = CardCache(capacity: 1200)
        let focus = 5.0
        let distance: (Int) -> Double = { abs(Double($0) - focus) }
        XCTAssertEqual(cache.insert(4, texture: tex(), version: 1, failed: false, distance: distance), [])
        XCTAssertEqual(cache.insert(9, texture: tex(), version: 1, failed: false, distance: distance), [])
        XCTAssertEqual(cache.insert(6, texture: tex(), version: 1, failed: false, distance: distance), [])
        XCTAssertEqual(cache.bytes, 1200)
        // Item 5 (the focus) needs room: 9 is farthest and goes.
        XCTAssertEqual(cache.insert(5, texture: tex(), version: 1, failed: false, distance: distance), [9])
        XCTAssertEqual(Set(cache.entries.keys), [4, 5, 6])
        XCTAssertLessThanOrEqual(cache.bytes, 1200)
        // Item 20 is farther than everything cached: refused, nothing evicted.
        XCTAssertNil(cache.insert(20, texture: tex(), version: 1, failed: false, distance: distance))
        XCTAssertEqual(Set(cache.entries.keys), [4, 5, 6])
    }

    func testLeastRecentlyUsedGoesFirstAmongEquals() {
        var cache = CardCache(capacity: 800)
        let distance: (Int) -> Double = { abs(Double($0) - 5) }
        _ = cache.insert(4, texture: tex(), version: 1, failed: false, distance: distance)
        _ = cache.insert(6, texture: tex(), version: 1, failed: false, distance: distance)
        _ = cache.use(4)
        XCTAssertEqual(cache.insert(5, texture: tex(), version: 1, failed: false, distance: distance), [6])
    }

    func testCountsMipLevelsAndReplacements() {
        var cache = CardCache(capacity: 10_000)
        let t = tex()
        t.buildMipLevels()
        _ = cache.insert(1, texture: t, version: 1, failed: false, distance: { _ in 0 })
        XCTAssertEqual(cache.bytes, t.byteCount)
        XCTAssertGreaterThan(t.byteCount, 400)
        _ = cache.insert(1, texture: tex(), version: 2, failed: false, distance: { _ in 0 })
        XCTAssertEqual(cache.bytes, 400)
        XCTAssertEqual(cache.peek(1)?.version, 2)
        cache.remap([1: 7])
        XCTAssertEqual(cache.peek(7)?.version, 2)
        XCTAssertNil(cache.peek(1))
        XCTAssertNil(cache.insert(2, texture: Texture(width: 100, height: 100), version: 1, failed: false, distance: { _ in 0 }))
    }
}
