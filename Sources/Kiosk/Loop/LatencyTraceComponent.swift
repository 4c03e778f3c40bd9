import Display
import LinuxSystem

/// `run --latency-trace`: input-to-photon latency of every frame that shows new input, written
/// to a `LatencyTrace`. The input devices tell the recorder each event's kernel time, the frame
/// pump each frame's draw and hand-over, the display when the frame was shown.
final class LatencyTraceComponent: KioskComponent {
    private let trace: LatencyTrace
    private unowned let context: KioskContext

    init(trace: LatencyTrace, context: KioskContext) {
        self.trace = trace
        self.context = context
    }

    func attach(to reactor: Reactor) throws {
        let display = context.display
        trace.writeDisplay(width: display.fullSize.width, height: display.fullSize.height,
                           refreshRate: display.refreshRate, buffers: context.session.config.display.buffers)
        let recorder = LatencyRecorder { [trace] in trace.write($0) }
        context.component(FramePump.self)?.latency = recorder
        context.display.onFrameShown = { recorder.shown($0) }
    }

    func stop(now: Double) { trace.close() }
}
