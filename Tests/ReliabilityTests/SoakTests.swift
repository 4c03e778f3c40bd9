import CarouselCore
import Foundation
import KioskConfig
import XCTest

/// Long random runs of the whole carousel (see `SoakDriver`). `make test` runs a short soak;
/// `make soak` (scripts/soak.sh) sets `KIOSK_SOAK_EVENTS=1000000` for the full one. A failure
/// prints the seed: `KIOSK_SOAK_SEED=N` replays it exactly.
final class SoakTests: XCTestCase {
    private var env: [String: String] { ProcessInfo.processInfo.environment }

    /// Configurations a reload switches between: every carousel family, wrap on and off,
    /// vertical, few and many items, none at all, autoscroll, paging.
    static func configs() -> [KioskConfiguration] {
        var out: [KioskConfiguration] = []
        let counts = [12, 3, 1, 0, 40]
        for (k, type) in CarouselType.allCases.enumerated() {
            var c = KioskConfiguration()
            c.carousel.type = type
            c.carousel.itemSize = Size2(k % 2 == 0 ? 96 : 120, 72)
            c.carousel.vertical = k % 5 == 4
            c.carousel.wrap = k % 3 == 0 ? true : (k % 3 == 1 ? false : nil)
            c.carousel.paging = k % 4 == 1
            c.carousel.autoscroll = k == 6 ? 0.25 : 0
            c.items = (0..<counts[k % counts.count]).map { i in ItemConfig(id: "item\(i)", title: "Item \(i)") }
            out.append(c)
        }
        return out
    }

    private func soak(events: Int, seed: UInt64) throws -> SoakReport {
        let driver = try SoakDriver(seed: seed, configs: Self.configs())
        let report = driver.run(events: events)
        print("soak seed \(seed): \(report.summary)")
        for v in report.violations { print("soak violation: \(v)") }
        return report
    }

    func testRandomInputKeepsTheCarouselSaneAndMemoryFlat() throws {
        let events = Int(env["KIOSK_SOAK_EVENTS"] ?? "") ?? 10_000
        let seed = UInt64(env["KIOSK_SOAK_SEED"] ?? "") ?? 20_261_121
        let report = try soak(events: events, seed: seed)
        XCTAssertEqual(report.violations, [], "replay with KIOSK_SOAK_SEED=\(seed) KIOSK_SOAK_EVENTS=\(events)")
        XCTAssertGreaterThan(report.carouselEvents["drag_began", default: 0], 0, "the soak must actually drag")
        XCTAssertGreaterThan(report.carouselEvents["selected", default: 0], 0, "the soak must actually select")
        XCTAssertGreaterThan(report.reloads, 0)
        // Memory: after warm-up the process may grow by allocator noise, not with the event count.
        let growth = report.rssEnd - report.rssAfterWarmup
        let allowed = 8 << 20
        XCTAssertLessThan(growth, allowed, "RSS grew by \(growth) bytes after warm-up: \(report.summary)")
    }
}
