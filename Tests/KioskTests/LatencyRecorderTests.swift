import Display
import XCTest
@testable import Kiosk

/// The recorder pairs each presented frame with its report and measures frames that show new
/// input only, whether the report comes later (page flips) or inside `present` (headless).
final class LatencyRecorderTests: XCTestCase {
    private var samples: [LatencyRecorder.Sample] = []
    private lazy var recorder = LatencyRecorder(capacity: 3) { [unowned self] in self.samples.append($0) }

    func testFlipReportedLaterMeasuresShownMinusNewestInput() {
        recorder.inputDelivered(kernelTime: 10.000)
        recorder.inputDelivered(kernelTime: 10.008)
        recorder.inputDelivered(kernelTime: 10.004)    // an older event read later (another device)
        recorder.presenting(renderStart: 10.010, renderEnd: 10.014)
        recorder.presented(sequence: 1, submitted: 10.015)
        XCTAssertTrue(samples.isEmpty, "nothing until the flip is reported")
        recorder.shown(FrameShown(sequence: 1, time: 10.030, timing: .vblank))
        XCTAssertEqual(samples.count, 1)
        XCTAssertEqual(samples[0].input, 10.008)
        XCTAssertEqual(samples[0].latency, 0.022, accuracy: 1e-9)
        XCTAssertEqual(samples[0].renderStart, 10.010)
        XCTAssertEqual(samples[0].renderEnd, 10.014)
        XCTAssertEqual(samples[0].submitted, 10.015)
        XCTAssertEqual(samples[0].timing, .vblank)
    }

    func testReportInsidePresentIsThatFrames() {
        recorder.inputDelivered(kernelTime: 5.0)
        recorder.presenting(renderStart: 5.01, renderEnd: 5.02)
        recorder.shown(FrameShown(sequence: 1, time: 5.021, timing: .submitted))
        recorder.presented(sequence: 1, submitted: 5.022)
        XCTAssertEqual(samples.map(\.sequence), [1])
        XCTAssertEqual(samples[0].latency, 0.021, accuracy: 1e-9)
    }

    func testFramesWithoutNewInputAreNotMeasured() {
        recorder.presenting(renderStart: 1, renderEnd: 1.01)    // no input yet (cards arriving)
        recorder.presented(sequence: 1, submitted: 1.01)
        recorder.shown(FrameShown(sequence: 1, time: 1.02, timing: .vblank))
        recorder.inputDelivered(kernelTime: 2.0)
        recorder.presenting(renderStart: 2.01, renderEnd: 2.02)
        recorder.presented(sequence: 2, submitted: 2.02)
        recorder.shown(FrameShown(sequence: 2, time: 2.03, timing: .vblank))
        recorder.presenting(renderStart: 2.04, renderEnd: 2.05)  // a tick of the glide, same input
        recorder.presented(sequence: 3, submitted: 2.05)
        recorder.shown(FrameShown(sequence: 3, time: 2.06, timing: .vblank))
        XCTAssertEqual(samples.map(\.sequence), [2])
    }

    func testAFrameThatWasNotSentIsNotMeasuredAndItsInputCountsForTheNext() {
        recorder.inputDelivered(kernelTime: 3.0)
        recorder.presenting(renderStart: 3.01, renderEnd: 3.02)
        recorder.presented(sequence: 0, submitted: 3.02)         // display lost: nothing sent
        recorder.presenting(renderStart: 3.05, renderEnd: 3.06)
        recorder.presented(sequence: 1, submitted: 3.06)
        recorder.shown(FrameShown(sequence: 1, time: 3.07, timing: .vblank))
        XCTAssertEqual(samples.map(\.sequence), [1])
        XCTAssertEqual(samples[0].input, 3.0)
    }

    func testUnreportedFramesAreForgottenWithinCapacity() {
        for k in 1...10 {
            recorder.inputDelivered(kernelTime: Double(k))
            recorder.presenting(renderStart: Double(k) + 0.1, renderEnd: Double(k) + 0.2)
            recorder.presented(sequence: UInt64(k), submitted: Double(k) + 0.2)
        }
        recorder.shown(FrameShown(sequence: 2, time: 2.5, timing: .vblank))    // pushed out already
        XCTAssertTrue(samples.isEmpty)
        recorder.shown(FrameShown(sequence: 9, time: 9.5, timing: .vblank))
        recorder.shown(FrameShown(sequence: 8, time: 9.6, timing: .vblank))    // older than 9: dropped with it
        recorder.shown(FrameShown(sequence: 10, time: 10.5, timing: .timedOut))
        XCTAssertEqual(samples.map(\.sequence), [9, 10])
        XCTAssertEqual(samples[1].timing, .timedOut)
    }
}
