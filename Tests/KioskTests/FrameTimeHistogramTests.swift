import XCTest
@testable import Kiosk

/// `FrameTimeHistogram`: each frame lands in the first bucket whose bound holds it, the counts
/// written are cumulative, a frame beyond the last bound is counted only in `count`.
final class FrameTimeHistogramTests: XCTestCase {
    func testFramesLandInTheFirstBucketThatHoldsThem() {
        var h = FrameTimeHistogram()
        for s in [0.0005, 0.001, 0.0011, 0.0167, 0.0168, 6.0, -1, .nan] { h.record(s) }
        let b = FrameTimeHistogram.bounds
        XCTAssertEqual(h.counts[b.firstIndex(of: 0.001)!], 4, "0.5 ms, 1 ms on the bound, and the negative and NaN times as 0")
        XCTAssertEqual(h.counts[b.firstIndex(of: 0.002)!], 1)
        XCTAssertEqual(h.counts[b.firstIndex(of: 0.0167)!], 1)
        XCTAssertEqual(h.counts[b.firstIndex(of: 0.020)!], 1)
        XCTAssertEqual(h.count, 8)
        XCTAssertEqual(h.cumulativeCounts.last, 7, "6 s is above the last bound: +Inf only")
        XCTAssertEqual(h.sum, 0.0005 + 0.001 + 0.0011 + 0.0167 + 0.0168 + 6.0, accuracy: 1e-12)
        XCTAssertEqual(h.cumulativeCounts, h.cumulativeCounts.sorted(), "cumulative counts never fall")
    }

    func testBoundsAscend() {
        XCTAssertEqual(FrameTimeHistogram.bounds, FrameTimeHistogram.bounds.sorted())
        XCTAssertEqual(Set(FrameTimeHistogram.bounds).count, FrameTimeHistogram.bounds.count)
    }
}
