import Display
import LinuxSystem

/// Draws a frame when one is owed (`KioskContext.frameNeeded`) and the display can take one (it
/// paces frames: its flips, or its own refresh cap), hands it to the display, and tells every
/// component (`framePresented`). Between frames the loop sleeps: while nothing moves, no frames.
final class FramePump: KioskComponent {
    private unowned let context: KioskContext
    /// Frames presented since start (black frames of a blank are not counted).
    private(set) var framesPresented = 0
    /// Unix time of the last frame presented.
    private var lastFrameWallTime: Double?
    /// When recent frames were presented (the reactor's clock), for `state`'s fps.
    private var presentTimes: [Double] = []
    /// Frames the display refused (`errors{kind="display"}`).
    private var displayErrors = 0
    /// This pass drew no frame: the loop wakes for the display's own timer (`nextWakeTime`).
    private var waitingForDisplay = false
    /// `run --latency-trace`'s recorder, while one is set (`LatencyTraceComponent`).
    var latency: LatencyRecorder?

    init(context: KioskContext) { self.context = context }

    func prepare(now: Double) {
        let display = context.display, session = context.session, clock = context.reactor.clock
        guard context.frameNeeded, display.canPresent else {
            waitingForDisplay = true
            return
        }
        waitingForDisplay = false
        let t = clock()
        let sceneChanged = session.needsFrame
        let damage = session.renderFrame(now: now)
        latency?.presenting(renderStart: t, renderEnd: clock())
        do {
            try display.present(session.frame, damage: damage)
            latency?.presented(sequence: display.frameSequence, submitted: clock())
            framesPresented += 1
            lastFrameWallTime = context.wallClock()
            presentTimes.append(t)
            if presentTimes.count > 120 { presentTimes.removeFirst(presentTimes.count - 120) }
            context.presented(PresentedFrame(time: t, duration: clock() - t, count: framesPresented,
                                             sceneChanged: sceneChanged))
        } catch {
            displayErrors += 1
            context.logger.error("display: \(error)")
            for c in context.components { c.frameFailed(error) }
        }
    }

    /// When the display's own timer ends, if this pass drew no frame (a frame drawn is followed
    /// by its flip, or by the next change).
    var nextDeadline: Double? {
        guard waitingForDisplay, let w = context.display.nextWakeTime else { return nil }
        return context.reactorTime(ofDisplayTime: w)
    }

    /// Frames per second over the last second (0 when still).
    var fps: Double {
        let t = context.reactor.clock()
        return Double(presentTimes.filter { t - $0 <= 1 }.count)
    }

    func report(into health: inout KioskHealth) {
        health.framesPresented = framesPresented
        health.lastFrameTime = lastFrameWallTime
        health.errors["display", default: 0] += displayErrors
    }
}
