import XCTest
@testable import CarouselCore

/// The pixel shift's path (`[display] pixel_shift`): inside the square, one pixel per step,
/// every offset once per cycle, starting unshifted; steps only at their times.
final class PixelShiftTests: XCTestCase {
    func testThePathVisitsEveryOffsetOfTheSquareOnceInOnePixelSteps() {
        for n in 1...16 {
            let shift = PixelShift(range: n, interval: 600)
            let path = shift.path
            XCTAssertEqual(path.count, (2 * n + 1) * (2 * n + 1), "n = \(n)")
            XCTAssertTrue(path[0] == (0, 0), "the cycle starts unshifted (n = \(n))")
            var seen = Set<Int>()
            var diagonals = 0
            for (k, p) in path.enumerated() {
                XCTAssertTrue(abs(p.x) <= n && abs(p.y) <= n, "\(p) outside ±\(n)")
                seen.insert((p.y + n) * (2 * n + 1) + (p.x + n))
                let q = path[(k + 1) % path.count]   // the step after, the last one closing the cycle
                let dx = abs(q.x - p.x), dy = abs(q.y - p.y)
                XCTAssertTrue(dx <= 1 && dy <= 1 && dx + dy >= 1, "step \(p) → \(q) is not one pixel (n = \(n))")
                if dx == 1 && dy == 1 { diagonals += 1 }
            }
            XCTAssertEqual(seen.count, path.count, "every offset exactly once per cycle (n = \(n))")
            XCTAssertEqual(diagonals, 1, "one diagonal step per cycle, the rest along one axis (n = \(n))")
        }
    }

    func testTheOffsetChangesByOnePixelAtEachStepTimeAndNeverBetween() {
        let shift = PixelShift(range: 3, interval: 60, phase: 1234.5)
        var t = 0.0
        var last = shift.offset(at: t)
        for _ in 0..<(2 * shift.path.count) {
            guard let next = shift.nextChange(after: t) else { return XCTFail("an active shift has a next step") }
            XCTAssertGreaterThan(next, t)
            XCTAssertLessThanOrEqual(next - t, 60 + PixelShift.lateness + 1e-6)
            // Nothing changes until the next step…
            for f in [0.25, 0.5, 0.9] {
                let o = shift.offset(at: t + (next - PixelShift.lateness - t) * f)
                XCTAssertTrue(o == last, "no change between steps")
            }
            // …which moves by one pixel.
            let o = shift.offset(at: next)
            XCTAssertEqual(max(abs(o.x - last.x), abs(o.y - last.y)), 1, "one pixel at \(next)")
            last = o
            t = next
        }
    }

    func testTheTimeAtEveryOffsetIsTheSameOverACycle() {
        let shift = PixelShift(range: 2, interval: 10)
        var count: [String: Int] = [:]
        for k in 0..<(3 * shift.path.count) {
            let o = shift.offset(at: Double(k) * 10 + 5)
            count["\(o.x),\(o.y)", default: 0] += 1
        }
        XCTAssertEqual(count.count, 25)
        XCTAssertEqual(Set(count.values), [3], "three cycles: three steps at each offset")
        XCTAssertEqual(shift.period, 250)
    }

    func testOffIsTheCentreWithNoDeadline() {
        let shift = PixelShift(range: 0, interval: 600)
        XCTAssertFalse(shift.isActive)
        XCTAssertTrue(shift.offset(at: 12345) == (0, 0))
        XCTAssertNil(shift.nextChange(after: 0))
    }
}
