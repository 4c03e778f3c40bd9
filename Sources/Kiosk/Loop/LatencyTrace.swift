import Display
import Foundation
import LinuxSystem

/// Writes input-to-photon latency samples (`LatencyRecorder.Sample`) as JSON lines, for
/// `run --latency-trace FILE` and `scripts/measure-latency.sh`.
///
/// The first line describes the screen:
/// `{"kind":"display","width":800,"height":480,"refresh_hz":60.000,"buffers":2}`; then one line
/// per measured frame, times in `CLOCK_MONOTONIC` seconds:
/// `{"kind":"frame","seq":12,"input":…,"render_start":…,"render_end":…,"submitted":…,"shown":…,
/// "timing":"vblank","latency_ms":23.456}`. Lines are written in batches and at `close()`.
public final class LatencyTrace {
    private let file: OutputFile
    private var pending: [String] = []

    /// Creates (or truncates) `path`; a `FileWriteError` naming it when it cannot.
    public init(path: String) throws {
        file = try OutputFile(path: path)
    }

    /// The header line: the screen the frames are measured on.
    func writeDisplay(width: Int, height: Int, refreshRate: Double, buffers: Int) {
        append(String(format: "{\"kind\":\"display\",\"width\":%d,\"height\":%d,\"refresh_hz\":%.3f,\"buffers\":%d}",
                      width, height, refreshRate, buffers))
    }

    /// One measured frame.
    func write(_ s: LatencyRecorder.Sample) {
        let timing: String
        switch s.timing {
        case .vblank: timing = "vblank"
        case .submitted: timing = "submitted"
        case .timedOut: timing = "timed_out"
        }
        let times = String(format: "\"input\":%.6f,\"render_start\":%.6f,\"render_end\":%.6f,\"submitted\":%.6f,\"shown\":%.6f",
                           s.input, s.renderStart, s.renderEnd, s.submitted, s.shown)
        append("{\"kind\":\"frame\",\"seq\":\(s.sequence),\(times),\"timing\":\"\(timing)\","
               + String(format: "\"latency_ms\":%.3f}", s.latency * 1000))
    }

    /// Writes what is buffered and closes the file.
    public func close() {
        flush()
        file.close()
    }

    private func append(_ line: String) {
        pending.append(line)
        if pending.count >= 64 { flush() }
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        try? file.write(pending.joined(separator: "\n") + "\n")
        pending.removeAll(keepingCapacity: true)
    }
}
