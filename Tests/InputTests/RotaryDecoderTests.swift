import CarouselCore
import XCTest
@testable import Input

final class RotaryDecoderTests: XCTestCase {
    private let syn: (UInt16, UInt16, Int32) = (0, 0, 0)

    private func run(_ d: inout RotaryDecoder, _ events: [(UInt16, UInt16, Int32)]) -> [InputEvent] {
        events.flatMap { d.feed(type: $0.0, code: $0.1, value: $0.2) }
    }

    func testDetentsAreSummedPerFrame() {
        var d = RotaryDecoder(axis: .relDial, invert: false, selectKeyCode: 28)
        let out = run(&d, [(2, 7, 1), syn, (2, 7, 1), (2, 7, 1), syn, (2, 7, -1), syn, syn])
        XCTAssertEqual(out, [.rotary(delta: 1), .rotary(delta: 2), .rotary(delta: -1)])
    }

    func testFramesThatCancelOutEmitNothing() {
        var d = RotaryDecoder(axis: .relDial, invert: false, selectKeyCode: nil)
        XCTAssertEqual(run(&d, [(2, 7, 1), (2, 7, -1), syn]), [])
    }

    func testInvert() {
        var d = RotaryDecoder(axis: .relWheel, invert: true, selectKeyCode: nil)
        XCTAssertEqual(run(&d, [(2, 8, 3), syn, (2, 8, -1), syn]), [.rotary(delta: -3), .rotary(delta: 1)])
    }

    func testOnlyTheConfiguredAxisCounts() {
        for (axis, code) in [(RotaryOptions.Axis.relDial, UInt16(7)), (.relWheel, 8), (.relHWheel, 6), (.relX, 0)] {
            var d = RotaryDecoder(axis: axis, invert: false, selectKeyCode: nil)
            let others = [UInt16(0), 6, 7, 8].filter { $0 != code }.map { (UInt16(2), $0, Int32(5)) }
            XCTAssertEqual(run(&d, others + [syn]), [], "\(axis)")
            XCTAssertEqual(run(&d, [(2, code, 2), syn]), [.rotary(delta: 2)], "\(axis)")
        }
    }

    func testWrappedDeltaTakesTheShorterWay() {
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 23, to: 0, count: 24), 1)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 0, to: 23, count: 24), -1)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 5, to: 8, count: 24), 3)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 8, to: 5, count: 24), -3)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 20, to: 2, count: 24), 6)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 2, to: 20, count: 24), -6)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 0, to: 12, count: 24), 12, "half way round: forward")
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 12, to: 0, count: 24), 12, "half way round: forward")
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 0, to: 1, count: 2), 1)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: 1, to: 0, count: 2), 1)
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: -5, to: 4, count: 10), -1, "negative minimum")
        XCTAssertEqual(RotaryDecoder.wrappedDelta(from: .min, to: .max, count: Int64(UInt32.max) + 1), -1,
                       "full Int32 range without overflow")
    }

    func testAbsXWrapsAroundTheDeviceRange() {
        var d = RotaryDecoder(axis: .absX, invert: false, selectKeyCode: nil, absRange: 0...23, absValue: 0)
        let values: [Int32] = [1, 2, 1, 0, 23, 0, 22]
        let out = values.flatMap { run(&d, [(3, 0, $0), syn]) }
        XCTAssertEqual(out, [1, 1, -1, -1, -1, 1, -2].map { .rotary(delta: $0) })
    }

    func testAbsXWithoutAStartValueWaitsForTheFirst() {
        var d = RotaryDecoder(axis: .absX, invert: true, selectKeyCode: nil, absRange: 0...23, absValue: nil)
        XCTAssertEqual(run(&d, [(3, 0, 7), syn]), [])
        XCTAssertEqual(run(&d, [(3, 0, 9), syn]), [.rotary(delta: -2)])
    }

    func testButtonSelectsOnceAndRepeatIsIgnored() {
        var d = RotaryDecoder(axis: .relDial, invert: false, selectKeyCode: 28)
        let out = run(&d, [(2, 7, 1), (1, 28, 1), syn, (1, 28, 2), syn, (1, 28, 2), (1, 28, 0), syn, (1, 29, 1), syn])
        XCTAssertEqual(out, [.rotary(delta: 1), .keyDown(.enter), .keyUp(.enter)],
                       "detents before the press come first; autorepeat and other keys are ignored")
    }

    func testResetReleasesAHeldButton() {
        var d = RotaryDecoder(axis: .relDial, invert: false, selectKeyCode: 28)
        XCTAssertEqual(run(&d, [(1, 28, 1), syn]), [.keyDown(.enter)])
        XCTAssertEqual(d.reset(), [.keyUp(.enter)])
        XCTAssertEqual(d.reset(), [])
        XCTAssertEqual(run(&d, [(1, 28, 0), syn]), [], "a release after reset is not doubled")
    }

    func testDroppedEventsAreNotCountedTwice() {
        var d = RotaryDecoder(axis: .relDial, invert: false, selectKeyCode: nil)
        _ = run(&d, [(2, 7, 4)])
        d.dropPending()
        XCTAssertEqual(run(&d, [syn]), [])
    }
}
