import ArgumentParser
import CarouselCore
import Display
import Foundation
import Glibc
import Kiosk
import KioskConfig
import LinuxSystem
import Raster

/// `bench scale`: what `[display] render_scale` saves on a big screen, in one interleaved run.
struct BenchScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Full-frame time at render_scale 1 and ½ (coverflow, rotary), the upscale copy, and the memset floor.",
        usage: "kiosk-carousel bench scale [options]",
        discussion: """
            Builds the kiosk's own scene (the session: layout, card faces, overlays) for each \
            layout, at render_scale 1 and 0.5, with 1 thread and with --threads, and draws full \
            frames (session.renderFrame(full: true)); then copies each frame into a cached-memory \
            scan-out buffer of the screen's size with the display's copy (plain at 1; pixel \
            doubling and bilinear at ½). The floor is one memset of the screen-sized frame.

            Every variant is measured once per round, round after round (interleaved), so the \
            ratios between them hold on a busy machine; the medians are printed. Build with \
            `swift build -c release` before quoting numbers.
            """)

    @Option(help: "Screen size as WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var size = PixelSize(3840, 2160)
    @Option(help: "Rounds (each variant once per round).") var rounds = 15
    @Option(help: "Threads of the multi-threaded runs (default: the number of cores).") var threads: Int?
    @Option(help: "Layouts, comma-separated.") var layouts = "coverflow,rotary"
    @Option(help: "Rotation of the copy: 0, 90, 180, 270.") var rotation = 0
    @Option(help: "Write each variant's final screen as PNG into this folder.") var png: String?
    @Flag(help: "Draw in large text ([accessibility] large_text, docs/accessibility.md).") var largeText = false
    @Flag(help: "Draw in high contrast ([accessibility] high_contrast).") var highContrast = false

    /// The option checks: ArgumentParser prints `bench scale`'s usage with their messages.
    func validate() throws {
        guard DisplayRotation(degrees: rotation) != nil else { throw ValidationError("--rotation must be 0, 90, 180 or 270, not \(rotation)") }
        _ = try parsedLayouts()
    }

    private func parsedLayouts() throws -> [CarouselType] {
        try CarouselType.parseList(layouts, option: "--layouts")
    }

    func run() throws {
        let rot = DisplayRotation(degrees: rotation) ?? .none
        let (w, h) = (size.width, size.height)
        let cores = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let threadCounts = cores > 1 ? [1, cores] : [1]
        let types = try parsedLayouts()

        // The screen-sized buffer the copies write (physical size, cached memory).
        let (pw, ph) = rot.swapsAxes ? (h, w) : (w, h)
        let screen = UnsafeMutableRawPointer.allocate(byteCount: pw * ph * 4, alignment: 64)
        defer { screen.deallocate() }
        memset(screen, 0, pw * ph * 4)
        let buffer = ScanoutBuffer(base: screen, pitch: pw * 4, width: pw, height: ph, format: .xrgb8888)

        struct Variant { var label: String; var run: () -> Void; var times: [Double] = [] }
        var variants: [Variant] = []
        let floorFrame = UnsafeMutableRawPointer.allocate(byteCount: w * h * 4, alignment: 64)
        defer { floorFrame.deallocate() }
        variants.append(Variant(label: "floor: memset \(w)x\(h)", run: { memset(floorFrame, 0x20, w * h * 4) }))

        var sessions: [(String, CarouselSession)] = []
        for type in types {
            for t in threadCounts {
                for scale in [1.0, 0.5] {
                    var c = Self.config(type: type, width: w, height: h, threads: t)
                    c.display.renderScale = .fixed(scale)
                    c.accessibility.largeText = largeText
                    c.accessibility.highContrast = highContrast
                    let s = CarouselSession(config: c, width: w, height: h, renderScale: scale)
                    _ = s.renderFrame(full: true, now: 0)   // card faces drawn once, outside the timing
                    let tag = "\(type.rawValue) scale \(scale == 1 ? "1" : "½") threads \(t)"
                    variants.append(Variant(label: "draw  \(tag)", run: { _ = s.renderFrame(full: true, now: 0) }))
                    sessions.append((tag, s))
                }
            }
        }
        // The copies (per layout, one thread's frame: the copy does not depend on how it was drawn).
        for (tag, s) in sessions where tag.hasSuffix("threads 1") {
            let filters: [ScaleFilter] = s.renderScale == 1 ? [.pixelDoubling] : [.pixelDoubling, .bilinear]
            for f in filters {
                let copier = ScanoutCopier(filter: f)
                let name = s.renderScale == 1 ? "plain" : f.rawValue
                variants.append(Variant(label: "copy  \(tag.replacingOccurrences(of: " threads 1", with: "")) \(name) rot \(rotation)", run: {
                    copier.copy(s.frame.bounds, from: s.frame, to: buffer, rotation: rot)
                }))
            }
        }
        for _ in 0..<2 { for v in variants { v.run() } }   // warm-up
        for _ in 0..<rounds {
            for i in variants.indices {
                let t0 = MonotonicClock.now()
                variants[i].run()
                variants[i].times.append((MonotonicClock.now() - t0) * 1000)
            }
        }
        print("bench scale: \(w)x\(h), \(rounds) interleaved rounds, \(cores) core(s), copy rotation \(rotation); median (min) ms")
        for v in variants {
            let s = v.times.sorted()
            print(v.label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: " %8.2f  (%.2f)", s[s.count / 2], s[0]))
        }
        if let png {
            try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true)
            for (tag, s) in sessions where tag.hasSuffix("threads 1") {
                let copier = ScanoutCopier()
                copier.copy(s.frame.bounds, from: s.frame, to: buffer, rotation: rot)
                let shot = Canvas(width: pw, height: ph)
                for y in 0..<ph { (shot.pixels + y * shot.stride).update(from: (screen + y * pw * 4).assumingMemoryBound(to: UInt32.self), count: pw) }
                let name = tag.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "½", with: "half")
                try PNGEncoder.write(shot, to: (png as NSString).appendingPathComponent("\(name).png"))
            }
        }
    }

    /// The example's look at any size: cards a third of the height, eight titled items.
    static func config(type: CarouselType, width: Int, height: Int, threads: Int) -> KioskConfiguration {
        var c = KioskConfiguration()
        c.carousel.type = type
        let k = Double(height) / 720
        c.carousel.itemSize = Size2(400 * k, 300 * k)
        c.carousel.perspective /= k
        c.display.renderThreads = threads
        c.theme.titleOverlay.size *= k
        c.theme.titleOverlay.margin *= k
        c.theme.pageIndicator.dotSize *= k
        c.theme.pageIndicator.spacing *= k
        c.theme.pageIndicator.margin *= k
        c.theme.card.titleSize *= k
        c.theme.card.subtitleSize *= k
        c.theme.card.cornerRadius *= k
        c.items = (0..<9).map { i in
            var item = ItemConfig(id: "item\(i)", title: "Item \(i)", subtitle: "A card of the bench")
            item.style = c.theme.card
            item.style.background = 0xFF00_0000 | UInt32(40 + i * 20) << 16 | UInt32(60 + i * 10) << 8 | 0x80
            item.style.backgroundBottom = 0xFF10_1820
            return item
        }
        return c
    }
}
