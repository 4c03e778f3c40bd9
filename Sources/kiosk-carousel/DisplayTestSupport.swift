import Cards
import CarouselCore
import Display
import Foundation
import Kiosk
import KioskConfig
import LinuxSystem
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Prints `== step NAME (at T s)` lines, flushed at once: the step lines of the VM tests
/// (Tests/vm/lib/steps.bash), so that `kiosk-vm-scaled` can say which step a `display-test`
/// guest was in when it ran out of time.
final class StepAnnouncer {
    private let clock = MonotonicClock()

    /// A new step begins now.
    func begin(_ name: String) {
        print("== step \(name) (at \(String(format: "%.1f", clock.elapsed)) s)")
        fflush(stdout)
    }
}

/// The wall clock (`CLOCK_REALTIME`) in seconds since 1970, for the report's timestamps.
func wallClockNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_REALTIME, &t)
    return MonotonicClock.seconds(t)
}

/// Opens the display `display-test` drives: `kind` with `options`; with
/// `KIOSK_DISPLAY_TEST_HEADLESS=WIDTHxHEIGHT` in the environment, a headless display of that size
/// paced at 60 Hz instead (the host's tests run display-test where there is no screen).
func openDisplay(_ kind: DisplayBackendKind, options: DisplayOptions) throws -> DisplayBackend {
    if let size = ProcessInfo.processInfo.environment["KIOSK_DISPLAY_TEST_HEADLESS"], let s = PixelSize(modeName: size) {
        return HeadlessDisplay(width: s.width, height: s.height, paced: true, renderScale: options.renderScale)
    }
    return try DisplayOpener.open(kind, options: options)
}

/// Page flips completed so far (DRM), or frames shown (fbdev).
func flipCount(_ d: DisplayBackend) -> Int {
    if let drm = d as? DRMDisplay { return drm.flipsCompleted }
    if let fb = d as? FBDevDisplay { return fb.framesPresented }
    return 0
}

func restoreSummary(_ d: DisplayBackend) -> String {
    (d as? DRMDisplay)?.restoreSummary ?? (d as? FBDevDisplay)?.restoreSummary ?? "-"
}

/// Asks kiosk-vm for a screenshot (`kiosk-vm-shot NAME`, only inside a kiosk-vm guest).
func takeShot(name: String, virtualTime: Double) {
    let helper = "/run/kiosk-vm/bin/kiosk-vm-shot"
    guard FileManager.default.isExecutableFile(atPath: helper) else {
        FileHandle.standardError.write(Data("display-test: not in kiosk-vm; no screenshot \(name)\n".utf8))
        return
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: helper)
    p.arguments = [name]
    let out = Pipe()
    p.standardOutput = out
    do { try p.run() } catch {
        FileHandle.standardError.write(Data("display-test: \(helper): \(error)\n".utf8))
        return
    }
    p.waitUntilExit()
    let path = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    print(String(format: "shot %@ t=%.3f %@", name, virtualTime, path))
    fflush(stdout)
}

/// What `display-test` measures.
struct DisplayTestStats {
    let startMonotonic: Double
    var framesPresented = 0
    var idleFrames = 0
    var resizes = 0
    private var moving = false
    private var motionStart = 0.0
    private var motionFlipsStart = 0
    var motionSeconds = 0.0
    var motionFlips = 0
    private var idleStart: Double?
    private var idleCPUStart = 0.0
    var idleSeconds = 0.0
    var idleCPUSeconds = 0.0
    var firstFrameMs: Double?
    var firstFrameWall: Double?
    var flips = 0
    var pixelsCopied = 0
    var refreshRate = 0.0
    var size = (0, 0)
    var restore = "-"

    init(startMonotonic: Double) { self.startMonotonic = startMonotonic }

    /// Counts a frame; `idle`: drawn although the scene did not change and nothing moves.
    mutating func framePresented(idle: Bool) {
        framesPresented += 1
        if idle { idleFrames += 1 }
        // Idle time is counted from the first frame on (start-up is not idling).
        if framesPresented == 1 && !moving {
            idleStart = MonotonicClock.now()
            idleCPUStart = Self.cpuSeconds()
        }
    }

    /// Leaves time spent holding the clock for a screenshot out of the idle figures.
    mutating func exclude(seconds: Double, cpu: Double) {
        if idleStart != nil {
            idleSeconds -= seconds
            idleCPUSeconds -= cpu
        } else if moving {
            motionSeconds -= seconds
        }
    }

    /// Tracks motion intervals (flips per second while scrolling) and idle time (CPU, frames).
    mutating func motion(_ active: Bool, at now: Double, flips: Int) {
        if active && !moving {
            moving = true
            motionStart = now
            motionFlipsStart = flips
            if let s = idleStart { idleSeconds += now - s; idleCPUSeconds += Self.cpuSeconds() - idleCPUStart }
            idleStart = nil
        } else if !active && moving {
            moving = false
            motionSeconds += now - motionStart
            motionFlips += flips - motionFlipsStart
            idleStart = now
            idleCPUStart = Self.cpuSeconds()
        }
    }

    mutating func finish(display: DisplayBackend) {
        let now = MonotonicClock.now()
        if let s = idleStart { idleSeconds += now - s; idleCPUSeconds += Self.cpuSeconds() - idleCPUStart; idleStart = nil }
        let first = (display as? DRMDisplay)?.firstFrameTime ?? (display as? FBDevDisplay)?.firstFrameTime
        if let first {
            firstFrameMs = (first - startMonotonic) * 1000
            firstFrameWall = wallClockNow() - (now - first)
        }
        flips = flipCount(display)
        pixelsCopied = (display as? DRMDisplay)?.pixelsCopied ?? (display as? FBDevDisplay)?.pixelsCopied ?? 0
        refreshRate = display.refreshRate
        size = display.size
    }

    /// Process CPU time (user + system) in seconds.
    static func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    }

    /// One `key=value` line the VM tests parse.
    func report(signal: Int32?) -> String {
        let fps = motionSeconds > 0 ? Double(motionFlips) / motionSeconds : 0
        var parts = [
            "stats", "size=\(size.0)x\(size.1)", String(format: "refresh=%.2f", refreshRate),
            "frames=\(framesPresented)", "flips=\(flips)",
            String(format: "scroll_seconds=%.3f", motionSeconds), "scroll_flips=\(motionFlips)", String(format: "scroll_fps=%.1f", fps),
            String(format: "idle_seconds=%.3f", idleSeconds), "idle_frames=\(idleFrames)",
            String(format: "idle_cpu_ms=%.1f", idleCPUSeconds * 1000),
            "pixels_copied=\(pixelsCopied)", "resizes=\(resizes)",
        ]
        if let f = firstFrameMs { parts.append(String(format: "first_frame_ms=%.1f", f)) }
        if let w = firstFrameWall { parts.append(String(format: "first_frame_wall=%.6f", w)) }
        if let signal { parts.append("signal=\(signal)") }
        return parts.joined(separator: " ") + "\nrestore: \(restore)"
    }
}
