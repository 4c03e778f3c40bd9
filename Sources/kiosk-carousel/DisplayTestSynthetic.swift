import CarouselCore
import Display
import Foundation
import LinuxSystem
import Raster

/// Measures the display path alone (copy, flip, pacing) with frames that cost nothing to draw:
/// a bar sweeping across (damage: two 64-pixel columns) or, with `fullFrames`, a whole frame
/// changing every time. On a `Reactor`: draws whenever the display can take a frame, for
/// `seconds`; the display's descriptors and `signals` are watched, the display's own timer and
/// the end are the deadlines.
final class DisplayTestSynthetic: ReactorSource {
    private let display: DisplayBackend
    private unowned let reactor: Reactor
    private let fullFrames: Bool
    private let seconds: Double
    private var frame: Canvas
    private var frames = 0
    private var copiedPixels = 0
    private var oldBar = PixelRect.empty
    private let barWidth = 64
    private(set) var failure: Error?

    init(display: DisplayBackend, reactor: Reactor, fullFrames: Bool, seconds: Double) {
        self.display = display
        self.reactor = reactor
        self.fullFrames = fullFrames
        self.seconds = seconds
        frame = Canvas(width: max(1, display.size.width), height: max(1, display.size.height))
    }

    /// Runs the scene until `seconds` pass or a signal of `signals` arrives; the figures line.
    static func run(display: DisplayBackend, signals: SignalFD, fullFrames: Bool, seconds: Double) throws -> String {
        let reactor = try Reactor()
        let cpuStart = DisplayTestStats.cpuSeconds()
        let scene = DisplayTestSynthetic(display: display, reactor: reactor, fullFrames: fullFrames, seconds: seconds)
        for fd in display.pollDescriptors {
            try reactor.watch(fd) { _ = display.handleReadable(fd) }
        }
        try reactor.watch(signals.fd) { [unowned reactor] in
            _ = signals.drain()
            reactor.stop()
        }
        reactor.add(scene)
        reactor.run()
        if let failure = scene.failure { throw failure }
        let elapsed = reactor.now
        let cpu = DisplayTestStats.cpuSeconds() - cpuStart
        return String(format: "synthetic %@ size=%dx%d refresh=%.2f frames=%d flips=%d seconds=%.3f fps=%.1f cpu_percent=%.0f damage_pixels_per_frame=%d",
                      fullFrames ? "full" : "bars", display.size.width, display.size.height, display.refreshRate, scene.frames,
                      flipCount(display), elapsed, Double(scene.frames) / elapsed, 100 * cpu / elapsed,
                      scene.frames > 0 ? scene.copiedPixels / scene.frames : 0)
    }

    func prepare(now: Double) {
        if let w = display.nextWakeTime, MonotonicClock.now() >= w { _ = display.handleWake() }
        guard now < seconds else {
            reactor.stop()
            return
        }
        if frame.width != display.size.width || frame.height != display.size.height {
            frame = Canvas(width: max(1, display.size.width), height: max(1, display.size.height))
            oldBar = .empty
        }
        guard display.canPresent else { return }
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
        do { try display.present(frame, damage: damage) } catch {
            failure = error
            reactor.stop()
            return
        }
        frames += 1
        copiedPixels += damage.reduce(0) { $0 + $1.area }
    }

    /// The end, the display's own timer, or now when the copy took longer than the display's
    /// cap (the next frame can go at once).
    var nextDeadline: Double? {
        if failure != nil { return nil }
        var due = seconds
        if let w = display.nextWakeTime { due = min(due, w - reactor.start) }
        if display.canPresent { due = reactor.now }
        return due
    }
}
