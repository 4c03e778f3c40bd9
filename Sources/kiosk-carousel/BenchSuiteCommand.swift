import ArgumentParser
import CarouselCore
import CRasterSupport
import Dispatch
import Foundation
import Kiosk
import LinuxSystem
import Raster

/// `suite`: every compositor bench scene, built into the program, with 1 thread and all
/// threads: the one command a board's owner runs (docs/arm64.md), and the pixel comparison of
/// the arm64 check (`--frames 1 --warmup 0 --all-instruction-sets`, checksums compared).
struct BenchSuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Render every built-in compositor scene with 1 and all threads; print the table.",
        usage: "kiosk-carousel bench suite [options]",
        discussion: """
            The scenes are those of ../shared/bench/scenes and docs/compositor/extra_scenes.py, \
            built into the program (nothing to copy to the board). Per scene, filter and thread \
            count one SUITE line: the median and fastest frame time, frames per second and the \
            frame's checksum (the same on every machine and instruction set). FLOOR lines: the \
            time to fill one frame of the same size (memset), the least any frame can take.

            Build with `swift build -c release` before quoting numbers.
            """)

    @Option(help: "Timed frames per scene, filter and thread count.") var frames = 100
    @Option(help: "Untimed frames first.") var warmup = 10
    @Option(help: "Thread counts, comma-separated (default: 1 and the number of cores).") var threads: String?
    @Option(help: "bilinear or mipmap (default: both).") var filter: TextureFilter?
    @Option(help: "Loops to use: \(InstructionSet.allCases.map(\.rawValue).joined(separator: ", ")) (default: the best available).")
    var instructionSet: InstructionSet?
    @Flag(help: "Run every instruction set this build and CPU have.") var allInstructionSets = false
    @Option(help: "Read the scenes from this folder's *.json instead of the built-in ones.") var scenes: String?
    @Option(help: "Only these scenes, comma-separated.") var only: String?

    func validate() throws {
        if let set = instructionSet, !set.isAvailable {
            throw ValidationError("--instruction-set \(set.rawValue): not available on this CPU or build")
        }
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be 0 or more") }
        _ = try threadCounts()
        // The built-in scenes are known now; a --scenes folder's are read by run().
        if scenes == nil, let problem = onlyMatchesNone(BenchScene.builtInScenes.map(\.name)) { throw ValidationError(problem) }
    }

    /// Why `--only` keeps none of the scenes `names`; nil when it keeps one or more (or is not given).
    private func onlyMatchesNone(_ names: [String]) -> String? {
        guard let only else { return nil }
        let wanted = Set(only.split(separator: ",").map(String.init))
        guard !names.contains(where: wanted.contains) else { return nil }
        return "--only \(only): no such scene (the scenes are \(names.joined(separator: ", ")))"
    }

    private func threadCounts() throws -> [Int] {
        guard let threads else {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            return cores > 1 ? [1, min(cores, 64)] : [1]
        }
        let list = threads.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !list.isEmpty, list.allSatisfy({ $0 != nil && (1...64).contains($0!) }) else {
            throw ValidationError("--threads: comma-separated numbers 1...64")
        }
        return list.map { $0! }
    }

    private func loadScenes() throws -> [BenchScene] {
        var named: [(String, () throws -> BenchScene)] = []
        if let scenes {
            // A folder that cannot be read is named with the reason (not Foundation's NSCocoaErrorDomain text).
            guard let folder = opendir(scenes) else { throw SystemCallError(call: "opendir", subject: scenes) }
            closedir(folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: scenes).filter { $0.hasSuffix(".json") }
            let order = BenchScene.builtInScenes.map(\.name)
            let sorted = files.map { String($0.dropLast(5)) }.sorted {
                (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
            }
            named = sorted.map { n in (n, { try BenchScene.load(path: scenes + "/" + n + ".json") }) }
        } else {
            named = BenchScene.builtInScenes.map { s in
                (s.name, { try BenchScene.load(data: Data(s.json.utf8), source: "built-in scene \(s.name)") })
            }
        }
        if let only {
            if let problem = onlyMatchesNone(named.map(\.0)) { throw CommandFailure(problem) }
            let wanted = Set(only.split(separator: ",").map(String.init))
            named = named.filter { wanted.contains($0.0) }
        }
        do { return try named.map { try $0.1() } } catch let e as BenchScene.LoadError {
            throw CommandFailure(e.description)
        }
    }

    func run() throws {
        let threadList = try threadCounts()
        let loaded = try loadScenes()
        let filters = filter.map { [$0] } ?? [.bilinear, .mipmap]
        let sets = allInstructionSets ? InstructionSet.allCases.filter(\.isAvailable) : [instructionSet ?? .best]
        print("# kiosk-carousel \(KioskVersion.string) bench suite")
        for line in BenchMachine.describe() { print("# " + line) }
        print("# loops: \(sets.map(\.rawValue).joined(separator: ", ")) (available: "
              + InstructionSet.allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: ", ")
              + "); \(frames) timed frames after \(warmup) untimed, per line")
        let header = ["", "scene", "filter", "loops", "threads", "median_ms", "min_ms", "fps", "checksum"]
        print(header.joined(separator: "\t"))

        // The floor: one frame of the largest scene's size filled, by 1 and all threads.
        let width = loaded.map(\.width).max() ?? 1920, height = loaded.map(\.height).max() ?? 1080
        let floorCanvas = Canvas(width: width, height: height)
        for n in threadList {
            let times = measure { fill(floorCanvas, threads: n) }
            let gbs = Double(width * height * 4) / (times.median * 1e-3) / 1e9
            print(["FLOOR", "\(width)x\(height)", "memset", "-", "\(n)", ms(times.median), ms(times.min),
                   String(format: "%.1f", 1000 / times.median), String(format: "%.2f GB/s", gbs)].joined(separator: "\t"))
        }
        for filter in filters {
            if filter == .mipmap { for s in loaded { for q in s.quads { q.texture.buildMipLevels() } } }
            for scene in loaded {
                let canvas = Canvas(width: scene.width, height: scene.height)
                for set in sets {
                    for n in threadList {
                        let compositor = Compositor(filter: filter, threads: n, instructionSet: set)
                        let times = measure {
                            compositor.draw(scene.quads, into: canvas, backdrop: .color(scene.background))
                        }
                        let checksum = String(BenchScene.checksum(canvas), radix: 16)
                        print(["SUITE", scene.name, filter.rawValue, compositor.instructionSet.rawValue, "\(n)",
                               ms(times.median), ms(times.min), String(format: "%.1f", 1000 / times.median),
                               String(repeating: "0", count: 16 - checksum.count) + checksum].joined(separator: "\t"))
                    }
                }
            }
        }
    }

    /// Median and fastest of `frames` timed runs of `body`, after `warmup` untimed ones (ms).
    private func measure(_ body: () -> Void) -> (median: Double, min: Double) {
        for _ in 0..<warmup { body() }
        var times: [Double] = []
        times.reserveCapacity(frames)
        for _ in 0..<frames {
            let t0 = MonotonicClock.now()
            body()
            times.append((MonotonicClock.now() - t0) * 1e3)
        }
        return (times.median() ?? 0, times.min() ?? 0)
    }

    /// The frame filled with one colour in `threads` horizontal bands, as the compositor splits it.
    private func fill(_ canvas: Canvas, threads: Int) {
        let rows = canvas.height, pixels = canvas.pixels, stride = canvas.stride, width = canvas.width
        if threads == 1 {
            for y in 0..<rows { raster_fill32(pixels + y * stride, 0xFF18_1A26, width) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: threads) { b in
            for y in rows * b / threads..<rows * (b + 1) / threads { raster_fill32(pixels + y * stride, 0xFF18_1A26, width) }
        }
    }

    private func ms(_ v: Double) -> String { String(format: "%.3f", v) }
}
