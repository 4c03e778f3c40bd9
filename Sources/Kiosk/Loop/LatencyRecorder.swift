import Display

/// Input-to-photon latency of the frames the loop presents: for each frame that reflects input
/// newer than the frame before it, the time the frame reached the screen (`FrameShown.time`,
/// the kernel's vblank timestamp of a page flip) minus the kernel time of the newest input event
/// delivered before the frame was drawn.
///
/// The loop tells it, in order: every input event's raw kernel time (`inputDelivered`), the
/// render of a frame (`presenting`, just before `present`), the frame's sequence once `present`
/// returned (`presented`), and the display's `onFrameShown` reports (`shown`). Backends that show
/// a frame inside `present` (headless, fbdev, mode sets) report it before `presented`: that is
/// paired with the frame being presented. Memory is bounded: at most `capacity` frames wait for
/// their report (a flip that never reports is forgotten when newer frames push it out).
final class LatencyRecorder {
    /// One measured frame; times are `CLOCK_MONOTONIC` seconds.
    struct Sample: Equatable {
        /// `DisplayBackend.frameSequence` of the frame.
        var sequence: UInt64
        /// The kernel time of the newest input event the frame reflects.
        var input: Double
        /// When the loop started and finished drawing the frame.
        var renderStart: Double
        var renderEnd: Double
        /// When `present` returned (the flip was queued).
        var submitted: Double
        /// When the frame was shown (`FrameShown.time`) and how that time was obtained.
        var shown: Double
        var timing: FrameShown.Timing
        /// Input to photon, seconds.
        var latency: Double { shown - input }
    }

    private struct Frame {
        var input: Double
        var renderStart: Double
        var renderEnd: Double
        var submitted = 0.0
    }

    /// Frames presented and not yet reported shown, at most this many.
    let capacity: Int
    /// Gets every sample, on the loop's thread.
    var onSample: (Sample) -> Void

    /// The kernel time of the newest input event delivered so far.
    private(set) var newestInput: Double?
    /// The input time of the last frame presented (frames that reflect nothing newer are not measured).
    private var lastReflected = -Double.infinity
    /// The frame between `presenting` and `presented`.
    private var current: Frame?
    /// A report that came while `current` was being presented.
    private var shownDuringPresent: FrameShown?
    private var lastSequence: UInt64 = 0
    private var waiting: [(sequence: UInt64, frame: Frame)] = []

    init(capacity: Int = 8, onSample: @escaping (Sample) -> Void) {
        self.capacity = max(1, capacity)
        self.onSample = onSample
    }

    /// An input event stamped `kernelTime` (monotonic seconds) was delivered to the carousel.
    func inputDelivered(kernelTime: Double) {
        guard kernelTime.isFinite else { return }
        newestInput = max(newestInput ?? kernelTime, kernelTime)
    }

    /// A frame drawn from `renderStart` to `renderEnd` is about to be presented.
    func presenting(renderStart: Double, renderEnd: Double) {
        shownDuringPresent = nil
        guard let input = newestInput, input > lastReflected else { current = nil; return }
        current = Frame(input: input, renderStart: renderStart, renderEnd: renderEnd)
    }

    /// `present` returned at `submitted`; `sequence` is the display's `frameSequence` now (the
    /// same as before when the frame was not sent to the screen).
    func presented(sequence: UInt64, submitted: Double) {
        defer { current = nil; shownDuringPresent = nil }
        guard sequence > lastSequence else { return }
        lastSequence = sequence
        guard var frame = current else { return }
        frame.submitted = submitted
        lastReflected = frame.input
        if let s = shownDuringPresent, s.sequence == sequence {
            emit(frame, sequence: sequence, shown: s)
            return
        }
        waiting.append((sequence, frame))
        if waiting.count > capacity { waiting.removeFirst(waiting.count - capacity) }
    }

    /// The display reported a frame on screen.
    func shown(_ report: FrameShown) {
        if let i = waiting.firstIndex(where: { $0.sequence == report.sequence }) {
            let frame = waiting[i].frame
            waiting.removeSubrange(...i)    // older ones will not be reported any more
            emit(frame, sequence: report.sequence, shown: report)
        } else if current != nil {
            shownDuringPresent = report
        }
    }

    private func emit(_ f: Frame, sequence: UInt64, shown: FrameShown) {
        onSample(Sample(sequence: sequence, input: f.input, renderStart: f.renderStart, renderEnd: f.renderEnd,
                        submitted: f.submitted, shown: shown.time, timing: shown.timing))
    }
}
