import CarouselCore
import Raster
@testable import Display

/// An `OutputBackend` whose every answer a test sets: canvases as slots, taken in turn after the
/// front one (as DRM's buffers are), and a log of what the output asked of it.
final class FakeOutputBackend: OutputBackend {
    /// The slots' memory, the screen's size each.
    let slots: [Canvas]
    var screenSize: (width: Int, height: Int)
    var rotation: DisplayRotation = .none
    var refreshRate: Double = 60
    var isShowing = true
    var isIdle = true
    var pacing: OutputPacing = .clock
    var nextWakeTime: Double?
    /// What the next commits answer (`.shown(crtcID: 7)` when empty).
    var outcomes: [CommitOutcome] = []
    /// The slot on screen.
    private(set) var front = 0
    /// Commits asked for: slot and sequence.
    private(set) var commits: [(slot: Int, sequence: UInt64)] = []
    private(set) var firstFramesShown = 0
    private(set) weak var events: (any OutputEvents)?

    init(width: Int, height: Int, slots: Int) {
        screenSize = (width, height)
        self.slots = (0..<slots).map { _ in Canvas(width: width, height: height) }
    }

    var slotCount: Int { slots.count }

    func attach(_ events: any OutputEvents) { self.events = events }

    func acquireSlot() -> (index: Int, buffer: ScanoutBuffer)? {
        let back = (front + 1) % slots.count
        let c = slots[back]
        return (back, ScanoutBuffer(base: UnsafeMutableRawPointer(c.pixels), pitch: c.stride * 4,
                                    width: c.width, height: c.height, format: .xrgb8888))
    }

    func commit(slot index: Int, sequence: UInt64, at now: Double) -> CommitOutcome {
        commits.append((index, sequence))
        let outcome = outcomes.isEmpty ? .shown(crtcID: 7) : outcomes.removeFirst()
        switch outcome {
        case .shown, .queued: front = index
        case .busy, .dropped: break
        }
        return outcome
    }

    /// The slot that the last commit showed or queued.
    var frontSlot: Canvas { slots[front] }

    func firstFrameShown() { firstFramesShown += 1 }
    func release() {}
    func reacquire() {}
    func setScreenPower(_ on: Bool) -> ScreenPowerResult { .unsupported(reason: "fake") }
    var health: DisplayHealth { .showing }
    func close() {}
}

/// A clock a test moves by hand.
final class FakeClock {
    var now = 100.0
    var read: () -> Double { { [unowned self] in self.now } }
}
