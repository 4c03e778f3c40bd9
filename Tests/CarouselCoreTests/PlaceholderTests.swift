import XCTest
@testable import CarouselCore

/// iCarousel's placeholders: empty slots beside a short, non-wrapping row; drawn, never selected.
final class PlaceholderTests: XCTestCase {
    private func engine(items: Int, placeholders: Int, wrap: Bool = false) -> CarouselEngine {
        var o = CarouselOptions()
        o.type = .linear
        o.itemSize = Size2(100, 80)
        o.wrap = wrap
        o.visibleItems = 7
        o.placeholders = placeholders
        return CarouselEngine(options: o, itemCount: items, viewSize: Size2(800, 400))
    }

    func testShortRowShowsPlaceholderSlotsOnBothSides() {
        let e = engine(items: 2, placeholders: 2)
        let poses = e.layout(viewSize: Size2(800, 400))
        XCTAssertEqual(Set(poses.filter(\.isPlaceholder).map(\.index)), [-2, -1, 2, 3])
        XCTAssertEqual(Set(poses.filter { !$0.isPlaceholder }.map(\.index)), [0, 1])
        // A linear strip: slot -1 sits one item width left of item 0 (offset −1 → x −100).
        let left = poses.first { $0.index == -1 }!
        XCTAssertEqual(left.corners[0].x, 400 - 100 - 50, accuracy: 1e-9)
    }

    func testNoPlaceholdersUnlessAskedOrWhenWrapping() {
        XCTAssertTrue(engine(items: 2, placeholders: 0).layout(viewSize: Size2(800, 400)).allSatisfy { !$0.isPlaceholder })
        XCTAssertTrue(engine(items: 2, placeholders: 2, wrap: true).layout(viewSize: Size2(800, 400)).allSatisfy { !$0.isPlaceholder })
    }

    func testPlaceholdersAreNeverHit() {
        let e = engine(items: 2, placeholders: 2)
        // Slot −1 covers x 250…350; the point is inside it and inside no item.
        XCTAssertNil(e.itemIndex(at: Point2(300, 200), viewSize: Size2(800, 400)))
        XCTAssertEqual(e.itemIndex(at: Point2(400, 200), viewSize: Size2(800, 400)), 0)
    }
}
