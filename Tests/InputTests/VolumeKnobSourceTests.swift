import CarouselCore
import Glibc
import XCTest
@testable import Input

/// A knob's detents as volume key presses (`[input.volume_knob]`).
final class VolumeKnobSourceTests: XCTestCase {
    /// Returns what the test queued, once.
    private final class Knob: InputSource {
        private let fds: [Int32] = { var p: [Int32] = [-1, -1]; _ = pipe(&p); return p }()
        var queued: [TimedInputEvent] = []
        var suspended = false
        var pollDescriptors: [Int32] { [fds[0]] }
        func readTimed(fd: Int32) -> [TimedInputEvent] { defer { queued = [] }; return queued }
        func suspend() { suspended = true }
        func resume() { suspended = false }
        func close() { fds.forEach { _ = Glibc.close($0) } }
    }

    private func turn(_ source: VolumeKnobSource, _ knob: Knob, _ deltas: [Int]) -> [InputEvent] {
        knob.queued = deltas.enumerated().map { TimedInputEvent(time: Double($0.offset), event: .rotary(delta: $0.element)) }
        return source.readTimed(fd: knob.pollDescriptors[0]).map(\.event)
    }

    func testEachDetentIsAVolumeKeyPress() {
        let knob = Knob()
        let volume = VolumeKnobSource(knob: knob, detentsPerStep: 1)
        XCTAssertEqual(turn(volume, knob, [1, 1, -1]),
                       [.keyDown(.volumeUp), .keyUp(.volumeUp), .keyDown(.volumeUp), .keyUp(.volumeUp),
                        .keyDown(.volumeDown), .keyUp(.volumeDown)])
        XCTAssertEqual(turn(volume, knob, [3]).filter { $0 == .keyDown(.volumeUp) }.count, 3, "a fast turn: one press per detent")
        knob.close()
    }

    func testDetentsPerStepAreCountedAcrossReadsAndATurnBackStartsAgain() {
        let knob = Knob()
        let volume = VolumeKnobSource(knob: knob, detentsPerStep: 2)
        XCTAssertEqual(turn(volume, knob, [1]), [], "half a step")
        XCTAssertEqual(turn(volume, knob, [1]), [.keyDown(.volumeUp), .keyUp(.volumeUp)], "the second detent makes the step")
        XCTAssertEqual(turn(volume, knob, [1, -1]), [], "one up then one down: no step either way")
        XCTAssertEqual(turn(volume, knob, [-1]), [.keyDown(.volumeDown), .keyUp(.volumeDown)])
        knob.close()
    }

    func testTheButtonAndOtherEventsSelectNothing() {
        let knob = Knob()
        let volume = VolumeKnobSource(knob: knob, detentsPerStep: 1)
        knob.queued = [TimedInputEvent(time: 0, event: .keyDown(.enter)), TimedInputEvent(time: 0.1, event: .keyUp(.enter))]
        XCTAssertEqual(volume.readTimed(fd: knob.pollDescriptors[0]), [])
        volume.suspend()
        XCTAssertTrue(knob.suspended, "handed to a foreground program with the other devices")
        knob.close()
    }
}
