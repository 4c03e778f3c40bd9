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

/// The write end of the signal pipe (the handler may only make async-signal-safe calls).
private var signalPipeWriteEnd: Int32 = -1

/// SIGTERM/SIGINT as a readable descriptor: the handler writes the signal number into a pipe
/// (the self-pipe trick), the loop reads it and shuts down in order.
final class SignalDescriptor {
    let fd: Int32
    init(_ signals: [Int32]) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DisplayError(.failed, "pipe failed", errno: errno) }
        for e in ends {
            _ = fcntl(e, F_SETFL, fcntl(e, F_GETFL) | O_NONBLOCK)
            _ = fcntl(e, F_SETFD, FD_CLOEXEC)
        }
        fd = ends[0]
        signalPipeWriteEnd = ends[1]
        for s in signals {
            signal(s) { sig in
                var b = UInt8(truncatingIfNeeded: sig)
                _ = write(signalPipeWriteEnd, &b, 1)
            }
        }
    }
    /// The signal read, if one is pending.
    func read() -> Int32? {
        var b: UInt8 = 0
        return Glibc.read(fd, &b, 1) == 1 ? Int32(b) : nil
    }
}

/// One `poll` over the display's descriptors and the signal descriptor.
func waitForEvents(display: DisplayBackend, signals: SignalDescriptor, timeout: Double) throws -> (signal: Int32?, resized: Bool) {
    let fds = display.pollDescriptors
    var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
    let ms = Int32(min(60_000, max(0, (timeout * 1000).rounded(.up))))
    let n = poll(&pfds, nfds_t(pfds.count), ms)
    if n < 0 && errno != EINTR { throw DisplayError(.failed, "poll failed", errno: errno) }
    var resized = false
    var signal: Int32?
    for p in pfds where p.revents != 0 {
        if p.fd == signals.fd { signal = signals.read() } else { resized = display.handleReadable(p.fd) || resized }
    }
    return (signal, resized)
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

/// Measures the display path alone (copy, flip, pacing) with frames that cost nothing to draw:
/// a bar sweeping across (damage: two 64-pixel columns) or, with `fullFrames`, a whole frame
/// changing every time. Draws whenever the display can take a frame, for `seconds`.
func runSynthetic(display: DisplayBackend, signals: SignalDescriptor, fullFrames: Bool, seconds: Double) throws -> String {
    let start = MonotonicClock.now()
    let cpuStart = DisplayTestStats.cpuSeconds()
    var frame = Canvas(width: max(1, display.size.width), height: max(1, display.size.height))
    var frames = 0
    var copiedPixels = 0
    var oldBar = PixelRect.empty
    let barWidth = 64
    while MonotonicClock.now() - start < seconds {
        if frame.width != display.size.width || frame.height != display.size.height {
            frame = Canvas(width: max(1, display.size.width), height: max(1, display.size.height))
            oldBar = .empty
        }
        if display.canPresent {
            let damage: [PixelRect]
            if fullFrames {
                frame.fill(frames % 2 == 0 ? 0xFF20_4060 : 0xFF60_4020)
                damage = [frame.bounds]
            } else {
                let x = (frames * 8) % max(1, frame.width - barWidth)
                let bar = PixelRect(x: x, y: 0, width: barWidth, height: frame.height)
                frame.fill(0xFF10_1418, x: oldBar.x, y: 0, width: oldBar.width, height: frame.height)
                frame.fill(0xFFE0_E0E0, x: bar.x, y: 0, width: bar.width, height: frame.height)
                damage = [oldBar, bar]
                oldBar = bar
            }
            try display.present(frame, damage: damage)
            frames += 1
            copiedPixels += damage.reduce(0) { $0 + $1.area }
        }
        var timeout = seconds - (MonotonicClock.now() - start)
        if let w = display.nextWakeTime { timeout = min(timeout, w - MonotonicClock.now()) }
        // The copy may have taken longer than the cap: then the next frame can go at once.
        if display.canPresent { timeout = 0 }
        let r = try waitForEvents(display: display, signals: signals, timeout: max(0, timeout))
        if r.signal != nil { break }
        if let w = display.nextWakeTime, MonotonicClock.now() >= w { _ = display.handleWake() }
    }
    let elapsed = MonotonicClock.now() - start
    let cpu = DisplayTestStats.cpuSeconds() - cpuStart
    return String(format: "synthetic %@ size=%dx%d refresh=%.2f frames=%d flips=%d seconds=%.3f fps=%.1f cpu_percent=%.0f damage_pixels_per_frame=%d",
                  fullFrames ? "full" : "bars", display.size.width, display.size.height, display.refreshRate, frames,
                  flipCount(display), elapsed, Double(frames) / elapsed, 100 * cpu / elapsed, frames > 0 ? copiedPixels / frames : 0)
}
