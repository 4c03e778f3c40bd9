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

    func testQuantilesAreTheBucketBoundsThatHoldThem() {
        var h = FrameTimeHistogram()
        XCTAssertNil(h.quantile(0.5), "no frame yet")
        for _ in 0..<90 { h.record(0.007) }     // the 8 ms bucket
        for _ in 0..<9 { h.record(0.030) }      // the 33.3 ms bucket
        h.record(0.2)                            // the 250 ms bucket
        XCTAssertEqual(h.quantile(0.5), 0.008)
        XCTAssertEqual(h.quantile(0.9), 0.008, "the 90th frame is the last of the 8 ms bucket")
        XCTAssertEqual(h.quantile(0.95), 0.0333)
        XCTAssertEqual(h.quantile(0.99), 0.0333)
        XCTAssertEqual(h.quantile(1), 0.250)
        h.record(9)
        XCTAssertEqual(h.quantile(1), 5.0, "above the last bound: the last bound")
        XCTAssertEqual(h.quantile(-3), 0.008, "q clamped to 0…1: the first bucket with a frame")
    }

    func testBoundsAscend() {
        XCTAssertEqual(FrameTimeHistogram.bounds, FrameTimeHistogram.bounds.sorted())
        XCTAssertEqual(Set(FrameTimeHistogram.bounds).count, FrameTimeHistogram.bounds.count)
    }
}
