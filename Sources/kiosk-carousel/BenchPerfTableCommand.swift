import ArgumentParser
import CarouselCore
import Foundation
import Kiosk
import KioskConfig
import Raster

extension FrameBudget.Statistic: ExpressibleByArgument {}

/// `bench perf-table`: the frame budget table of docs/performance.md — for each panel size and
/// layout type, the whole-frame and drag-frame times with one thread and all threads, the refresh
/// rate a drag sustains, memory, and the physical floor. Drawn as the kiosk draws (sessions from
/// the config, real card faces), so it can be rerun on any board.
struct BenchPerfTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perf-table",
        abstract: "Print the frame budget table (docs/performance.md) as markdown.",
        usage: "kiosk-carousel bench perf-table [options]",
        discussion: """
            For every size and layout type: the config (default config/example.toml) with that \
            type and its item_size scaled by the panel's short side / 1080, drawn by a carousel \
            session with its cards. `full` is a frame whose damage is the whole screen; `drag` a \
            frame of a finger dragging at 720 px/s (per 1080 rows), whose damage is what moved. \
            Each time is the median of --frames frames (--statistic min: whole frames by the \
            fastest, each drag frame by the fastest of three drags).

            Build with `swift build -c release` first.
            """)

    @OptionGroup var config: ConfigOption
    @Option(help: "Panel sizes, comma separated.") var sizes = "800x480,1280x800,1920x1080,3840x2160"
    @Option(help: "Layout types, comma separated (default: all).") var types: String?
    @Option(help: "Frames timed per measurement.") var frames = 15
    @Option(help: "median (a board that runs nothing else) or min (a shared machine: fastest of repeats).")
    var statistic: FrameBudget.Statistic = .median
    @Option(help: "The 'all threads' count (default: render_threads' default, the cores up to 4).")
    var threads = Compositor.defaultThreadCount

    func validate() throws {
        guard (3...10_000).contains(frames) else { throw ValidationError("--frames must be 3…10000") }
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be 1…64") }
        _ = try parsedSizes()
        _ = try parsedTypes()
    }

    private func parsedSizes() throws -> [PixelSize] {
        do { return try sizes.split(separator: ",").map { try PixelSize(parsing: String($0)) } } catch let e as ValidationError {
            throw ValidationError("--sizes: \(e.message)")
        }
    }

    private func parsedTypes() throws -> [CarouselType] {
        try types.map { try CarouselType.parseList($0, option: "--types") } ?? CarouselType.allCases
    }

    func run() throws {
        var base = try config.load()
        if base.items.isEmpty { throw CommandFailure("\(config.path): the config has no items to draw") }
        base.display.renderThreads = nil
        let panels = try parsedSizes()
        let kinds = try parsedTypes()
        let counts = threads == 1 ? [1] : [1, threads]
        let loops = Compositor(threads: 1).instructionSet.rawValue
        print("Machine: \(Self.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(loops) loops; "
              + "\(base.items.count) items of `\(config.path)`, base item_size "
              + "\(Int(base.carousel.itemSize.width))×\(Int(base.carousel.itemSize.height)) at 1080 rows; \(statistic.rawValue) of \(frames) frames.")
        print("")
        let n = counts.last!
        print("| size | layout | full 1 thr ms | full \(n) thr ms | drag 1 thr ms | drag \(n) thr ms | drag damage | drag sustains (1 / \(n) thr) | memory MB (frames + cards) | floor: fill / copy ms |")
        print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|")
        for p in panels {
            for kind in kinds {
                let cfg = FrameBudget.configuration(base, type: kind, width: p.width, height: p.height)
                let r = FrameBudget.measure(cfg, width: p.width, height: p.height, threads: counts, frames: frames,
                                              statistic: statistic)
                func ms(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
                func hz(_ v: Double?) -> String { v.map { "\(FrameBudget.sustainedRate($0)) Hz" } ?? "–" }
                let mb = { (b: Int) in String(format: "%.0f", Double(b) / 1_048_576) }
                print("| \(p.width)×\(p.height) | \(kind.rawValue) | \(ms(r.fullMs[1])) | \(ms(r.fullMs[n])) | "
                      + "\(ms(r.dragMs[1])) | \(ms(r.dragMs[n])) | \(String(format: "%.0f %%", r.dragDamage * 100)) | "
                      + "\(hz(r.dragMs[1])) / \(hz(r.dragMs[n])) | \(mb(r.frameBytes + r.cardBytes)) (\(mb(r.frameBytes)) + \(mb(r.cardBytes))) | "
                      + "\(ms(r.fillMs)) / \(ms(r.copyMs)) |")
                fflush(stdout)
            }
        }
    }

    /// The CPU's model name from /proc/cpuinfo ("model name", else "Model", else the machine).
    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for key in ["model name", "Model", "Hardware"] {
            for line in text.split(separator: "\n") where line.hasPrefix(key) {
                if let v = line.split(separator: ":", maxSplits: 1).last { return v.trimmingCharacters(in: .whitespaces) }
            }
        }
        var u = utsname()
        uname(&u)
        return withUnsafeBytes(of: &u.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
