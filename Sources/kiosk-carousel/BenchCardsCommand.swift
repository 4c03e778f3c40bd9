import ArgumentParser
import Cards
import Foundation
import KioskConfig
import LinuxSystem
import Raster

/// `bench cards`: how long one card takes to draw from each kind of source, and how much
/// memory a long scroll through photo items takes with the byte-bounded cache.
struct BenchCardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cards",
        abstract: "Card render times (4000×3000 JPEG, PNG, SVG, text) and peak memory scrolling 1,000 photo items.",
        usage: "kiosk-carousel bench cards [options]")

    @Option(help: "Card size for the render times, WIDTHxHEIGHT.", transform: PixelSize.init(parsing:))
    var size = PixelSize(480, 360)
    @Option(help: "Timed renders per source (after 2 warm-up renders).") var runs = 20
    @Option(help: "Photo items in the scroll test.") var items = 1000
    @Option(help: "Card size in the scroll test, WIDTHxHEIGHT (a cover-flow card on a 1080p screen).",
            transform: PixelSize.init(parsing:))
    var scrollCardSize = PixelSize(800, 600)
    @Option(help: "Cache bound in MB for the scroll test ([cards] cache_mb).") var cacheMb = 64
    @Option(help: "Worker threads for the scroll test ([cards] workers).") var workers = 2
    @Option(help: "Items visible at once while scrolling.") var visible = 9

    /// The option checks: ArgumentParser prints `bench cards`' usage with their message.
    func validate() throws {
        guard runs > 0, items > 0, cacheMb > 0, workers > 0, visible > 0 else {
            throw ValidationError("--runs, --items, --cache-mb, --workers and --visible must be positive")
        }
    }

    func run() throws {
        let (w, h) = (size.width, size.height)
        let (sw, sh) = (scrollCardSize.width, scrollCardSize.height)
        HeapTuning.returnLargeBuffersToSystem()
        let dir = NSTemporaryDirectory() + "kiosk-bench-cards-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        print("bench cards: render one \(w)×\(h) card incl. mip levels, one thread; median and 90th percentile of \(runs) runs,")
        print("             wall time and the thread's CPU time (CPU time is steadier on a shared machine)")
        let sources = try makeSources(in: dir)
        let renderer = CardFaceRenderer()
        for (label, item) in sources {
            _ = renderer.renderFace(item, width: w, height: h)
            let first = renderer.renderFace(item, width: w, height: h)
            if let f = first.failure { throw CommandFailure("bench source failed: \(f)") }
            var wall: [Double] = [], cpu: [Double] = []
            for _ in 0..<runs {
                let t0 = monotonic(), c0 = threadCPU()
                let r = renderer.renderFace(item, width: w, height: h)
                r.texture.buildMipLevels()
                wall.append(monotonic() - t0)
                cpu.append(threadCPU() - c0)
            }
            wall.sort()
            cpu.sort()
            let p90 = min(runs - 1, runs * 9 / 10)
            print(String(format: "  %@ wall %7.2f ms (p90 %7.2f)   cpu %7.2f ms (p90 %7.2f)",
                         label.padding(toLength: 40, withPad: " ", startingAt: 0) as NSString,
                         wall[runs / 2] * 1000, wall[p90] * 1000, cpu[runs / 2] * 1000, cpu[p90] * 1000))
        }
        try scroll(dir: dir, cardWidth: sw, cardHeight: sh)
    }

    /// The four sources: a 4000×3000 JPEG and a 1600×1200 PNG made now, an SVG icon, text only.
    func makeSources(in dir: String) throws -> [(String, ItemConfig)] {
        var style = CardStyle()
        style.shadow = true
        let jpeg = dir + "/big.jpg"
        let bytes = JPEGEncoder.encode(scene(width: 4000, height: 3000, seed: 1), quality: 90)
        _ = FileManager.default.createFile(atPath: jpeg, contents: Data(bytes))
        let png = dir + "/photo.png"
        try TexturePNG.write(scene(width: 1600, height: 1200, seed: 2), to: png)
        let svg = dir + "/icon.svg"
        try Data(BenchCardsCommand.iconSVG.utf8).write(to: URL(fileURLWithPath: svg))
        var svgStyle = style
        svgStyle.imageFit = "contain"
        svgStyle.shadow = false
        return [
            ("JPEG 4000×3000 (\(bytes.count / 1024) kB), cover", ItemConfig(id: "jpeg", title: "Harbour at dawn", subtitle: "JPEG", image: jpeg, style: style)),
            ("PNG 1600×1200, cover", ItemConfig(id: "png", title: "Dunes", subtitle: "PNG", image: png, style: style)),
            ("SVG icon, contain", ItemConfig(id: "svg", title: "Play", image: svg, style: svgStyle)),
            ("text only (title 2 lines + subtitle)", ItemConfig(id: "text", title: "Opening hours and the way to the harbour museum",
                                                                subtitle: "Information · معلومات · जानकारी", style: CardStyle())),
        ]
    }

    /// Scrolls one item at a time through `items` photo items with the threaded pipeline,
    /// waiting at each step until the visible cards are drawn; reports cache and RSS peaks.
    func scroll(dir: String, cardWidth: Int, cardHeight: Int) throws {
        var photos: [String] = []
        for k in 0..<10 {
            let p = dir + "/scroll\(k).jpg"
            _ = FileManager.default.createFile(atPath: p, contents: Data(JPEGEncoder.encode(scene(width: 1920, height: 1080, seed: 10 + k), quality: 85)))
            photos.append(p)
        }
        var style = CardStyle()
        style.shadow = true
        let list = (0..<items).map { ItemConfig(id: "p\($0)", title: "Photo \($0 + 1)", image: photos[$0 % photos.count], style: style) }
        var settings = CardSettings()
        settings.cacheMB = cacheMb
        settings.workers = workers
        let rssBefore = memory("VmRSS"), mallocBefore = HeapTuning.bytesInUse
        let pipeline = CardPipeline(items: list, cardWidth: cardWidth, cardHeight: cardHeight,
                                    options: CardPipeline.Options(settings: settings))
        var peakRSS = rssBefore, peakMalloc = 0
        let t0 = monotonic()
        var waits = 0.0
        for focus in 0..<items {
            let half = visible / 2
            let shown = (max(0, focus - half)...min(items - 1, focus + half)).map { $0 }
            pipeline.request(visible: shown, focus: Double(focus))
            let w0 = monotonic()
            while true {
                pipeline.drainCompleted(now: monotonic())
                if shown.allSatisfy({ pipeline.isReady($0) }) { break }
                // A face the cache refuses is not asked for again at this focus: stop waiting.
                if pipeline.outstandingJobs == 0 { pipeline.drainCompleted(now: monotonic()); break }
                var p = pollfd(fd: pipeline.eventFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 1000)
            }
            waits += monotonic() - w0
            peakRSS = max(peakRSS, memory("VmRSS"))
            peakMalloc = max(peakMalloc, HeapTuning.bytesInUse)
        }
        let elapsed = monotonic() - t0
        let card = cardWidth * cardHeight * 4
        print("bench cards: scroll through \(items) photo items (1920×1080 JPEGs) as \(cardWidth)×\(cardHeight) cards, "
              + "cache_mb = \(cacheMb), workers = \(workers), \(visible) visible")
        print(String(format: "  cache peak        %7.1f MB of %d MB bound (%d cards of %.2f MB with mips)",
                     Double(pipeline.peakCacheBytes) / 1_048_576, cacheMb, pipeline.peakCacheBytes / max(1, card * 4 / 3),
                     Double(card * 4 / 3) / 1_048_576))
        print(String(format: "  RSS               %7.1f MB before, %.1f MB peak while scrolling (VmHWM %.1f MB)",
                     Double(rssBefore) / 1024, Double(peakRSS) / 1024, Double(memory("VmHWM")) / 1024))
        print(String(format: "  malloc in use     %7.1f MB before, %.1f MB peak (cache + decode buffers + fonts and libraries)",
                     Double(mallocBefore) / 1_048_576, Double(peakMalloc) / 1_048_576))
        print(String(format: "  time              %7.2f s (%.1f ms per step, %.1f ms of it waiting for workers)",
                     elapsed, elapsed / Double(items) * 1000, waits / Double(items) * 1000))
    }

    /// A photo-like test picture: a sky gradient, a sun and rolling hills.
    func scene(width: Int, height: Int, seed: Int) -> Texture {
        let tint = UInt32((seed * 37) % 80)
        return Texture(width: width, height: height) { x, y in
            let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
            let hill = 0.6 + 0.08 * sin(fx * 7 + Double(seed)) + 0.04 * cos(fx * 19)
            if fy > hill {
                return 0xFF00_0000 | UInt32(30 + 40 * fx) << 16 | UInt32(70 + 60 * (1 - fy)) << 8 | (40 + tint)
            }
            let dx = fx - 0.7, dy = fy - 0.3
            if dx * dx + dy * dy < 0.004 { return 0xFFFF_E8A0 }
            return 0xFF00_0000 | UInt32(250 - 120 * fy) << 16 | UInt32(150 + 60 * fy) << 8 | (120 + tint)
        }
    }

    static let iconSVG = """
    <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5ec8ff"/>
      <stop offset="1" stop-color="#2a5bd7"/></linearGradient></defs>
      <rect x="8" y="8" width="112" height="112" rx="28" fill="url(#g)"/>
      <path d="M52 38 L92 64 L52 90 Z" fill="#fff"/></svg>
    """

    func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func monotonic() -> Double { MonotonicClock.now() }

    /// A `/proc/self/status` field in kB (VmRSS, VmHWM).
    func memory(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
