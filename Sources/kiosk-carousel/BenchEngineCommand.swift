import ArgumentParser
import CarouselCore
import Foundation

/// `bench engine`: the cost of one engine tick plus one layout, for 10², 10⁴ and 10⁶ items and
/// every layout type, while the carousel is dragged, flung and animated. Only the visible slots
/// are touched, so the figures must not grow with the item count. Costs are the thread's CPU
/// time (`CLOCK_THREAD_CPUTIME_ID`), so a busy machine does not inflate them.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine",
        abstract: "Tick + layout cost for 10^2, 10^4 and 10^6 items.",
        usage: "kiosk-carousel bench engine [options]")

    @Option(help: "Frames measured per type and item count.") var frames: Int = 2000
    @Option(help: "View size as WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var size = PixelSize(1280, 720)
    @Flag(help: "Print one line per layout type too.") var verbose = false

    func validate() throws {
        guard frames >= 10 && frames <= 10_000_000 else { throw ValidationError("--frames must be 10…10000000") }
    }

    func run() throws {
        let (w, h) = (size.width, size.height)
        let view = Size2(Double(w), Double(h))
        print("bench engine: \(frames) frames (one 120 Hz tick + one layout) per type, view \(w)x\(h), thread CPU time")
        print(pad("items", 10) + pad("mean µs", 12, right: true) + pad("median µs", 12, right: true) + pad("p99 µs", 12, right: true)
              + "  " + pad("slowest type", 22) + pad("most poses", 10, right: true))
        var means: [Double] = []
        for count in [100, 10_000, 1_000_000] {
            var all: [Double] = []
            var worst = (name: "", mean: 0.0)
            var poses = 0
            for type in CarouselType.allCases {
                let (samples, drawn) = measure(type: type, count: count, view: view)
                let mean = samples.reduce(0, +) / Double(samples.count)
                if mean > worst.mean { worst = (type.rawValue, mean) }
                poses = max(poses, drawn)
                all += samples
                if verbose {
                    print("  " + pad(type.rawValue, 22) + pad(String(count), 8, right: true) + " items"
                          + pad(String(format: "%.2f", mean), 10, right: true) + " µs")
                }
            }
            all.sort()
            let mean = all.reduce(0, +) / Double(all.count)
            means.append(mean)
            print(pad(String(count), 10) + pad(String(format: "%.2f", mean), 12, right: true)
                  + pad(String(format: "%.2f", all[all.count / 2]), 12, right: true)
                  + pad(String(format: "%.2f", all[all.count * 99 / 100]), 12, right: true)
                  + "  " + pad(worst.name, 22) + pad(String(poses), 10, right: true))
        }
        let ratio = means.last! / means.first!
        print(String(format: "10^6 / 10^2 mean cost ratio: %.2f (1.00 = independent of the item count)", ratio))
    }

    /// CPU time of the calling thread, in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    private func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }

    /// Per-frame costs in microseconds, and the most poses drawn in one frame.
    private func measure(type: CarouselType, count: Int, view: Size2) -> ([Double], Int) {
        var options = CarouselOptions()
        options.type = type
        options.itemSize = Size2(400, 300)
        options.keyframes = [PathKeyframe(offset: -1, translate: (-420, 0, -200), rotate: (0, 30, 0)),
                             PathKeyframe(offset: 0),
                             PathKeyframe(offset: 1, translate: (420, 0, -200), rotate: (0, -30, 0))]
        let engine = CarouselEngine(options: options, itemCount: count, viewSize: view)
        engine.setScrollOffset(Double(count / 2), now: 0)
        let dt = 1.0 / 120
        var samples: [Double] = []
        samples.reserveCapacity(frames)
        var drawn = 0
        var x = 640.0
        for frame in 0..<frames {
            let now = Double(frame + 1) * dt
            // A drag for 30 frames, a fling, then a scroll every 240 frames.
            let phase = frame % 240
            let begin = Self.threadCPUNanoseconds()
            switch phase {
            case 0: engine.apply(.fingerDown(Point2(x, 360)), now: now); engine.apply(.dragBegan, now: now)
            case 1..<30: x -= 9; engine.apply(.dragMoved(pixels: -9), now: now)
            case 30: engine.apply(.dragEnded(velocity: -1500), now: now)
            case 180: engine.apply(.scrollBy(items: 3, duration: nil), now: now)
            default: break
            }
            engine.tick(now: now)
            let poses = engine.layout(viewSize: view)
            _ = engine.takeEvents()
            let end = Self.threadCPUNanoseconds()
            if phase == 30 { x = 640 }
            drawn = max(drawn, poses.count)
            samples.append(Double(end - begin) / 1000)
        }
        return (samples, drawn)
    }
}
