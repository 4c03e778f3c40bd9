import CarouselCore
import KioskConfig
import XCTest
@testable import Kiosk

/// `FrameBudget` (the `bench perf-table` rows): the config it measures and what a row holds.
final class FrameBudgetTests: XCTestCase {
    func config() -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.itemSize = Size2(400, 300)
        c.carousel.wrap = false
        c.items = colouredItems(6)
        return c
    }

    func testTheCardIsScaledByThePanelsShortSideAndTheTypeWrapsAsByDefault() {
        let c = FrameBudget.configuration(config(), type: .wheel, width: 3840, height: 2160)
        XCTAssertEqual(c.carousel.type, .wheel)
        XCTAssertEqual(c.carousel.itemSize.width, 800)
        XCTAssertEqual(c.carousel.itemSize.height, 600)
        XCTAssertTrue(c.carousel.wraps, "wheel wraps by default; the config's wrap = false is dropped")
        let small = FrameBudget.configuration(config(), type: .coverflow, width: 800, height: 480)
        XCTAssertEqual(small.carousel.itemSize.height, (300.0 * 480 / 1080).rounded())
        XCTAssertFalse(small.carousel.wraps)
        XCTAssertFalse(FrameBudget.configuration(config(), type: .custom, width: 800, height: 480).carousel.keyframes.isEmpty)
    }

    func testARowHasBothThreadCountsADragThatMovesAndTheFloor() {
        let c = FrameBudget.configuration(config(), type: .coverflow, width: 320, height: 200)
        let row = FrameBudget.measure(c, width: 320, height: 200, threads: [1, 2], frames: 3)
        for t in [1, 2] {
            XCTAssertGreaterThan(row.fullMs[t] ?? 0, 0)
            XCTAssertGreaterThan(row.dragMs[t] ?? 0, 0)
        }
        XCTAssertGreaterThan(row.dragDamage, 0, "the drag moves the cards")
        XCTAssertLessThanOrEqual(row.dragDamage, 1)
        XCTAssertEqual(row.frameBytes, 4 * 320 * 200 * 4, "frame, background and two display buffers")
        XCTAssertGreaterThan(row.cardBytes, 0)
        XCTAssertGreaterThan(row.fillMs, 0)
    }

    func testTheSustainedRateIsTheFastestWhoseIntervalTheFrameFits() {
        XCTAssertEqual(FrameBudget.sustainedRate(16.0), 60)
        XCTAssertEqual(FrameBudget.sustainedRate(16.7), 30)
        XCTAssertEqual(FrameBudget.sustainedRate(40), 20)
        XCTAssertEqual(FrameBudget.sustainedRate(150), 0)
    }
}
