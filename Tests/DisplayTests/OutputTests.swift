import CarouselCore
import Raster
import XCTest
@testable import Display

/// `Output`, against a backend that does only what a test tells it (`FakeOutputBackend`): the
/// damage of every slot, the render scale, the frame sequence and figures, the clock pacing.
final class OutputTests: XCTestCase {
    let clock = FakeClock()

    func makeOutput(width: Int = 64, height: Int = 48, slots: Int = 2, renderScale: Double = 1,
                    pacing: OutputPacing = .clock) -> (Output<FakeOutputBackend>, FakeOutputBackend) {
        let backend = FakeOutputBackend(width: width, height: height, slots: slots)
        backend.pacing = pacing
        return (Output(backend: backend, renderScale: renderScale, clock: clock.read), backend)
    }

    /// What `output` reports through `onFrameShown`, as it comes.
    final class ShownLog {
        var frames: [FrameShown] = []
        init<B>(_ output: Output<B>) { output.onFrameShown = { [unowned self] in self.frames.append($0) } }
    }

    // MARK: damage per slot

    /// Over 2 and 3 slots: after every present the slot shown equals the frame everywhere,
    /// although each present names only what changed; a slot's first write is the whole frame,
    /// later ones only the damage of the last `slots` presents.
    func testEverySlotReceivesTheDamageSinceItWasLastWritten() throws {
        for count in [2, 3] {
            let (output, backend) = makeOutput(slots: count, pacing: .unpaced)
            let frame = patternFrame(width: 64, height: 48, generation: 0)
            try output.present(frame, damage: [])
            XCTAssertEqual(output.stats.lastCopiedPixels, 64 * 48, "\(count) slots: a new slot is written whole")
            var rng = SplitMix(UInt64(count))
            for g in 1...12 {
                let r = PixelRect(x: Int(rng.next() % 56), y: Int(rng.next() % 40), width: 8, height: 8)
                for y in r.y..<r.maxY { for x in r.x..<r.maxX { frame[x, y] = UInt32(g) << 24 | UInt32(y << 12) | UInt32(x) } }
                try output.present(frame, damage: [r])
                let shown = backend.frontSlot
                for y in 0..<48 { for x in 0..<64 where shown[x, y] != frame[x, y] {
                    return XCTFail("\(count) slots, present \(g): pixel \(x),\(y) is stale")
                } }
                if g < count {
                    XCTAssertEqual(output.stats.lastCopiedPixels, 64 * 48, "\(count) slots, present \(g): first write of its slot")
                } else {
                    XCTAssertLessThanOrEqual(output.stats.lastCopiedPixels, 64 * count, "\(count) slots, present \(g)")
                }
            }
            XCTAssertEqual(backend.commits.map(\.slot), (1...13).map { $0 % count }, "\(count) slots in turn")
        }
    }

    /// While the backend shows nothing (released, unplugged, switched off) a present only records
    /// the damage: the slots get it when frames go again.
    func testDamageWhileNotShowingReachesTheSlotsLater() throws {
        let (output, backend) = makeOutput(pacing: .unpaced)
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        try output.present(frame, damage: [frame.bounds])
        try output.present(frame, damage: [])
        backend.isShowing = false
        XCTAssertFalse(output.canPresent)
        frame.fill(0xFF12_3456, x: 10, y: 10, width: 4, height: 4)
        try output.present(frame, damage: [PixelRect(x: 10, y: 10, width: 4, height: 4)])
        XCTAssertEqual(backend.commits.count, 2, "nothing committed while not showing")
        backend.isShowing = true
        try output.present(frame, damage: [])
        XCTAssertEqual(backend.frontSlot[11, 11], 0xFF12_3456)
        XCTAssertEqual(output.stats.lastCopiedPixels, 16)
    }

    /// The backend says its slots are unknown (a new mode, master taken back): the next frame is
    /// wanted and copied whole into every slot.
    func testSlotsLostAsksForAWholeFrame() throws {
        let (output, backend) = makeOutput(pacing: .unpaced)
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        try output.present(frame, damage: [frame.bounds])
        try output.present(frame, damage: [frame.bounds])
        XCTAssertFalse(output.wantsFrame)
        backend.events?.slotsLost()
        XCTAssertTrue(output.wantsFrame)
        for _ in 0..<2 {
            try output.present(frame, damage: [])
            XCTAssertEqual(output.stats.lastCopiedPixels, 64 * 48)
        }
        XCTAssertFalse(output.wantsFrame)
    }

    // MARK: render scale

    func testARenderScaleChangeResizesAndAsksForAWholeFrame() throws {
        let (output, backend) = makeOutput(width: 64, height: 48, renderScale: 1, pacing: .unpaced)
        let full = patternFrame(width: 64, height: 48, generation: 1)
        try output.present(full, damage: [full.bounds])
        try output.present(full, damage: [full.bounds])
        XCTAssertFalse(output.wantsFrame)

        XCTAssertTrue(output.setRenderScale(0.5))
        XCTAssertTrue(output.size == (32, 24), "\(output.size)")
        XCTAssertTrue(output.fullSize == (64, 48))
        XCTAssertEqual(output.renderScale, 0.5)
        XCTAssertTrue(output.wantsFrame, "the whole frame at the new size")
        XCTAssertFalse(output.setRenderScale(0.5), "no change")
        XCTAssertFalse(output.setRenderScale(0.4), "clamped to 0.5: no change")

        // A frame still of the old size is not shown; it asks for the relaid-out one.
        try output.present(full, damage: [full.bounds])
        XCTAssertEqual(backend.commits.count, 2)
        XCTAssertTrue(output.wantsFrame)

        let half = patternFrame(width: 32, height: 24, generation: 2)
        for _ in 0..<2 {
            try output.present(half, damage: [])
            let shown = backend.frontSlot
            for y in 0..<48 { for x in 0..<64 where shown[x, y] != half[x / 2, y / 2] { return XCTFail("\(x),\(y) not enlarged") } }
        }
        XCTAssertFalse(output.wantsFrame)
    }

    func testTheDrawnSizeIsTheSceneSizeOfTheBackendsScreen() {
        let (output, backend) = makeOutput(width: 1001, height: 601, renderScale: 0.7)
        XCTAssertTrue(output.size == RenderScale.sceneSize(width: 1001, height: 601, scale: 0.7))
        backend.screenSize = (0, 0)
        XCTAssertTrue(output.size == (0, 0), "no screen")
    }

    // MARK: sequence and figures

    func testFramesShownAtOnceAreNumberedAndReported() throws {
        let (output, backend) = makeOutput(pacing: .unpaced)
        let shown = ShownLog(output)
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        XCTAssertEqual(output.frameSequence, 0)
        XCTAssertNil(output.stats.firstFrameTime)
        try output.present(frame, damage: [frame.bounds])
        clock.now += 1
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(output.frameSequence, 2)
        XCTAssertEqual(backend.commits.map(\.sequence), [1, 2])
        XCTAssertEqual(shown.frames, [FrameShown(sequence: 1, time: 100, timing: .submitted, crtcID: 7),
                               FrameShown(sequence: 2, time: 101, timing: .submitted, crtcID: 7)])
        XCTAssertEqual(output.stats.framesPresented, 2)
        XCTAssertEqual(output.stats.pixelsCopied, 2 * 64 * 48)
        XCTAssertEqual(output.stats.firstFrameTime, 100)
        XCTAssertEqual(backend.firstFramesShown, 1, "the backend hears of the first frame once")
    }

    /// A queued frame (a page flip) takes its number at once and is reported when its backend
    /// says it completed; frames that cannot go (busy, dropped) take no number.
    func testQueuedBusyAndDroppedCommits() throws {
        let (output, backend) = makeOutput(pacing: .completionEvents)
        let shown = ShownLog(output)
        let frame = patternFrame(width: 64, height: 48, generation: 0)

        backend.outcomes = [.queued]
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(output.frameSequence, 1)
        XCTAssertEqual(shown.frames, [], "not on screen yet")
        XCTAssertFalse(output.wantsFrame)
        XCTAssertNil(output.stats.firstFrameTime)
        let vblank = FrameShown(sequence: 1, time: 100.016, timing: .vblank, crtcID: 7, driverSequence: 9)
        backend.events?.commitCompleted(vblank, at: 100.02)
        XCTAssertEqual(shown.frames, [vblank])
        XCTAssertEqual(output.stats.completions, 1)
        XCTAssertEqual(output.stats.firstFrameTime, 100.02)

        backend.outcomes = [.busy]
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(output.frameSequence, 1, "busy: no number")
        XCTAssertTrue(output.wantsFrame, "busy: the frame is wanted again")

        backend.outcomes = [.dropped]
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(output.frameSequence, 1, "dropped: no number")

        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(output.frameSequence, 2, "the numbers of frames that did not go are not used")
        XCTAssertEqual(backend.commits.map(\.sequence), [1, 2, 2, 2])
        XCTAssertEqual(output.stats.framesPresented, 2)
        XCTAssertFalse(output.wantsFrame)
    }

    /// A flip shown within a refresh and a quarter of its queueing is on time; a later one, or
    /// one the backend gave up on, is a flip missed.
    func testFlipsShownLateOrNeverAreCountedAsMissed() throws {
        let (output, backend) = makeOutput(pacing: .completionEvents)
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        let period = 1 / backend.refreshRate
        func flip(completedAfter delay: Double, timing: FrameShown.Timing = .vblank) throws {
            backend.outcomes = [.queued]
            try output.present(frame, damage: [frame.bounds])
            let queued = clock.now
            clock.now += delay
            backend.events?.commitCompleted(FrameShown(sequence: output.frameSequence, time: queued + delay, timing: timing), at: clock.now)
            clock.now += period
        }
        try flip(completedAfter: 0.002)
        try flip(completedAfter: period)
        XCTAssertEqual(output.flipsMissed, 0, "at the next vblank: on time")
        try flip(completedAfter: 2 * period)
        XCTAssertEqual(output.flipsMissed, 1, "two refreshes later: a vblank missed")
        try flip(completedAfter: 0.1, timing: .timedOut)
        XCTAssertEqual(output.flipsMissed, 2, "never completed: missed")
        XCTAssertEqual(output.stats.completions, 4)
    }

    // MARK: pacing

    func testClockPacingCapsAtTheBackendsRefreshRate() throws {
        let (output, backend) = makeOutput()
        backend.refreshRate = 10
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        XCTAssertTrue(output.canPresent)
        XCTAssertNil(output.nextWakeTime)
        try output.present(frame, damage: [frame.bounds])
        XCTAssertFalse(output.canPresent, "a tenth of a second has not passed")
        XCTAssertEqual(try XCTUnwrap(output.nextWakeTime), 100.1, accuracy: 1e-9)

        // Presenting anyway keeps the frame's damage for the next one and asks for it.
        clock.now += 0.05
        frame.fill(0xFF00_FF00, x: 0, y: 0, width: 2, height: 2)
        try output.present(frame, damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        XCTAssertEqual(backend.commits.count, 1)
        XCTAssertTrue(output.wantsFrame)

        clock.now = 100.1
        XCTAssertTrue(output.canPresent)
        XCTAssertNil(output.nextWakeTime)
        try output.present(frame, damage: [])
        XCTAssertEqual(backend.commits.count, 2)
        XCTAssertEqual(backend.frontSlot[1, 1], 0xFF00_FF00, "the damage of the refused present was kept")

        // A new refresh rate (a new mode) sets the period from the next frame on.
        backend.refreshRate = 4
        clock.now = 100.2
        try output.present(frame, damage: [])
        XCTAssertEqual(try XCTUnwrap(output.nextWakeTime), 100.45, accuracy: 1e-9)
    }

    func testCompletionEventsAndUnpacedIgnoreTheClockButNotACommitInFlight() throws {
        let (output, backend) = makeOutput()
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        backend.pacing = .completionEvents
        try output.present(frame, damage: [frame.bounds])
        XCTAssertTrue(output.canPresent, "paced by the events, not the clock")
        XCTAssertNil(output.nextWakeTime)
        backend.isIdle = false
        XCTAssertFalse(output.canPresent, "a commit in flight")
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(backend.commits.count, 1, "nothing committed over the one in flight")
        XCTAssertTrue(output.wantsFrame)
        backend.isIdle = true
        backend.pacing = .unpaced
        for _ in 0..<3 { try output.present(frame, damage: [frame.bounds]) }
        XCTAssertEqual(backend.commits.count, 4)
        XCTAssertTrue(output.canPresent)
        XCTAssertNil(output.nextWakeTime)
    }

    func testTheBackendsWakeTimeComesFirst() throws {
        let (output, backend) = makeOutput()
        let frame = patternFrame(width: 64, height: 48, generation: 0)
        try output.present(frame, damage: [frame.bounds])
        XCTAssertEqual(try XCTUnwrap(output.nextWakeTime), 100 + 1.0 / 60, accuracy: 1e-9)
        backend.nextWakeTime = 100.5
        XCTAssertEqual(output.nextWakeTime, 100.5, "a flip's timeout, a master retry")
        backend.nextWakeTime = nil
        backend.isShowing = false
        XCTAssertNil(output.nextWakeTime, "no pacing while nothing is shown")
    }
}
