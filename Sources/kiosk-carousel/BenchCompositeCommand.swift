import ArgumentParser
import CarouselCore
import Display
import Foundation
import LinuxSystem
import Raster

/// `composite`: renders a `../shared/bench` scene repeatedly and prints the peers' RESULT line.
struct BenchCompositeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "composite",
        abstract: "Render a ../shared/bench scene and print a RESULT line.",
        usage: "kiosk-carousel bench composite SCENE [options]",
        discussion: """
            Prints one line, like the peer harnesses in ../shared/bench/peers:

              RESULT ours <scene> <build> <median_ms> <min_ms> <mean_ms> <frames>
                <checksum> <covered_px> <bbox_px>

            Every timed frame writes the whole frame: the background colour where no card is \
            and every card over it (no damage shortcuts; cards are blended onto the colour \
            itself where nothing lies under them, instead of onto a cleared frame read back). \
            The loops are those of the best instruction set the CPU has (as Qt's and \
            pixman's); --instruction-set baseline measures the portable build of the same loops.

            With --damage it then prints DAMAGE lines: the pixels a damage-tracked renderer \
            copies to the display per frame when idle and while the scene pans sideways.

            Build with `swift build -c release` before quoting numbers.
            """)

    @Argument(help: "Scene file (../shared/bench/scenes/*.json).")
    var scene: String

    @Option(help: "Timed frames.") var frames = 200
    @Option(help: "Untimed frames first.") var warmup = 20
    @Option(help: "Horizontal bands drawn in parallel.") var threads = 1
    @Option(help: "bilinear (no mip levels) or mipmap.") var filter: TextureFilter = .mipmap
    @Option(help: "Write the final frame as PNG.") var png: String?
    @Option(help: "Build tag printed in the RESULT line.") var build = "release"
    @Option(help: "Loops to use: \(InstructionSet.allCases.map(\.rawValue).joined(separator: ", ")) (default: the best available).")
    var instructionSet: InstructionSet?
    @Flag(help: "Turn occlusion culling off.") var noOcclusion = false
    @Flag(help: "Also report damage-tracked pixels per frame, idle and panning.") var damage = false

    func validate() throws {
        if let set = instructionSet, !set.isAvailable {
            throw ValidationError("--instruction-set \(set.rawValue): not available on this CPU or build")
        }
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be 0 or more") }
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be 1...64") }
    }

    func run() throws {
        let loaded: BenchScene
        do { loaded = try BenchScene.load(path: scene) } catch let e as BenchScene.LoadError {
            throw CommandFailure(e.description)
        }
        let textureFilter = filter
        if textureFilter == .mipmap { for q in loaded.quads { q.texture.buildMipLevels() } }
        let canvas = Canvas(width: loaded.width, height: loaded.height)
        let compositor = Compositor(filter: textureFilter, threads: threads,
                                    instructionSet: instructionSet ?? .best)
        compositor.occlusionCulling = !noOcclusion
        func frame() {
            // The whole frame is written every frame: the background where no card is, and the
            // cards blended over it (onto the colour itself where nothing lies under them).
            compositor.draw(loaded.quads, into: canvas, backdrop: .color(loaded.background))
        }
        for _ in 0..<warmup { frame() }
        var times: [Double] = []
        times.reserveCapacity(frames)
        for _ in 0..<frames {
            let t0 = monotonicMilliseconds()
            frame()
            times.append(monotonicMilliseconds() - t0)
        }
        let sorted = times.sorted()
        let median = sorted.median() ?? 0
        let mean = times.reduce(0, +) / Double(frames)
        let checksum = String(BenchScene.checksum(canvas), radix: 16)
        let fields = ["RESULT", "ours", loaded.name, build, String(format: "%.4f", median), String(format: "%.4f", sorted[0]),
                      String(format: "%.4f", mean), "\(frames)", String(repeating: "0", count: 16 - checksum.count) + checksum,
                      String(format: "%.0f", loaded.coveredArea), String(format: "%.0f", loaded.boundingBoxArea)]
        print(fields.joined(separator: "\t"))
        FileHandle.standardError.write(
            "shaded \(compositor.shadedPixels) px per frame (\(compositor.instructionSet.rawValue) loops)\n".data(using: .utf8)!)
        if let png { try PNGEncoder.write(canvas, to: png) }
        if damage { reportDamage(loaded, filter: textureFilter, instructionSet: compositor.instructionSet) }
    }

    /// Damage-tracked rendering of the scene: idle (same quads again) and panning by 7 px per
    /// frame, into two display buffers whose damage is kept by `BufferDamage`, as the display
    /// backends keep theirs.
    private func reportDamage(_ s: BenchScene, filter: TextureFilter, instructionSet: InstructionSet) {
        let background = Canvas(width: s.width, height: s.height)
        background.fill(s.background)
        let composer = FrameComposer(background: background, compositor: Compositor(filter: filter, threads: threads, instructionSet: instructionSet))
        let display = [Canvas(width: s.width, height: s.height), Canvas(width: s.width, height: s.height)]
        var bufferDamage = BufferDamage(buffers: display.count)
        func shifted(_ dx: Double) -> [Quad] {
            s.quads.map { q in
                var m = q
                m.corners = q.corners.map { Point2($0.x + dx, $0.y) }
                return m
            }
        }
        var frameNumber = 0
        func present(_ quads: [Quad]) -> Int {
            bufferDamage.record(composer.render(quads))
            let index = frameNumber % display.count
            var copied = 0
            for r in bufferDamage.take(index) {
                display[index].copy(from: composer.frame, x: r.x, y: r.y, width: r.width, height: r.height)
                copied += r.area
            }
            frameNumber += 1
            return copied
        }
        _ = present(s.quads); _ = present(s.quads)  // both buffers hold the scene
        var idle = 0
        for _ in 0..<10 { idle += present(s.quads) }
        var scrolling = 0
        for i in 1...20 { scrolling += present(shifted(Double(i * 7))) }
        let full = s.width * s.height
        print("DAMAGE\tidle\t\(idle / 10)\tpx/frame")
        print("DAMAGE\tscrolling\t\(scrolling / 20)\tpx/frame\t"
              + String(format: "%.1f%% of the frame", 100 * Double(scrolling / 20) / Double(full)))
    }

    private func monotonicMilliseconds() -> Double { MonotonicClock.now() * 1e3 }
}
