import Display

/// `run --latency-trace`: input-to-photon latency of every frame that shows new input.
extension KioskApp {
    /// Subscribes to the display's frame reports and writes each measured frame to `trace`
    /// (called once by `run()` before the loop starts when `latencyTrace` is set).
    func startLatencyTrace(_ trace: LatencyTrace) {
        trace.writeDisplay(width: display.fullSize.width, height: display.fullSize.height,
                           refreshRate: display.refreshRate, buffers: session.config.display.buffers)
        let recorder = LatencyRecorder { trace.write($0) }
        latency = recorder
        display.onFrameShown = { recorder.shown($0) }
    }
}
