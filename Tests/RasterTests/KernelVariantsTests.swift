import CarouselCore
import TestSupport
import XCTest
@testable import Raster
@testable import RasterKernels
import CRasterSupport

/// The ways to reach the same pixels must agree bit for bit: the baseline, x86-64-v2 and AVX2
/// builds of the loops, drawing over a `Backdrop` versus filling first and drawing over the frame, and
/// the near-unit-scale loads of the row filter versus the single-pass loop.
final class KernelVariantsTests: XCTestCase {
    /// An opaque card with transparent rounded corners (radius 5), like a real cover: its
    /// opaque regions form a cross, so both the opaque-run and the general paths are taken.
    private static func card(_ w: Int, _ h: Int, seed: UInt32) -> Texture {
        Texture(width: w, height: h) { x, y in
            let cx = x < 5 ? 5 - x : (x >= w - 5 ? x - (w - 6) : 0)
            let cy = y < 5 ? 5 - y : (y >= h - 5 ? y - (h - 6) : 0)
            if cx * cx + cy * cy > 25 { return 0 }
            let r = UInt32(x * 13 + y * 3) &+ seed, g = UInt32(x * 5 + y * 17) &* (seed | 1), b = UInt32((x ^ y) * 9)
            return 0xFF00_0000 | (r & 0xFF) << 16 | (g & 0xFF) << 8 | (b & 0xFF)
        }
    }

    /// Translucent texels everywhere (premultiplied).
    private static let glass = Texture(width: 29, height: 19) { x, y in
        let a = UInt32(40 + (x * 11 + y * 7) % 200)
        return a << 24 | (UInt32(x * 9) % (a + 1)) << 16 | (UInt32(y * 13) % (a + 1)) << 8 | UInt32(x * y) % (a + 1)
    }

    /// A deterministic mix of every quad kind: projective, affine (rotated, sheared), axis-aligned
    /// at scales around 1 (skipped and repeated texels), strongly minified and magnified,
    /// 1:1 blits, mirrored quads, alpha, and quads reaching past the frame.
    private static func scene(seed: UInt64, width: Int, height: Int) -> [Quad] {
        var rng = SplitMix64(seed: seed)
        func next() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var quads: [Quad] = []
        for i in 0..<14 {
            let tex = i % 4 == 3 ? glass : card(24 + Int(next() * 60), 16 + Int(next() * 40), seed: UInt32(i) &* 77)
            let w = Double(tex.width), h = Double(tex.height)
            let x = next() * Double(width) - w / 2, y = next() * Double(height) - h / 2
            let alpha = next() < 0.4 ? 1 : 0.35 + next() * 0.6
            var corners: [Point2]
            switch i % 7 {
            case 0:  // near unit scale, minified a little (skipped texels)
                let s = 0.9 + next() * 0.099
                corners = RT.rect(x, y, x + w * s, y + h * s)
            case 1:  // near unit scale, magnified a little (repeated texels)
                let s = 1.01 + next() * 0.1
                corners = RT.rect(x.rounded() + 0.25, y, x + w * s, y + h * s)
            case 2:  // 1:1 blit
                corners = RT.rect(x.rounded(), y.rounded(), x.rounded() + w, y.rounded() + h)
            case 3:  // strongly scaled, mirrored horizontally half the time
                let s = 0.3 + next() * 2.5
                corners = RT.rect(x, y, x + w * s, y + h * s)
                if next() < 0.5 { corners = [corners[1], corners[0], corners[3], corners[2]] }
            case 4:  // rotated
                let a = next() * 6.28, c = cos(a), s = sin(a)
                corners = [Point2(0, 0), Point2(w, 0), Point2(w, h), Point2(0, h)].map {
                    Point2(x + $0.x * c - $0.y * s, y + $0.x * s + $0.y * c)
                }
            case 5:  // sheared
                let k = next() - 0.5
                corners = [Point2(x, y), Point2(x + w, y), Point2(x + w + k * h, y + h), Point2(x + k * h, y + h)]
            default:  // projective, like a cover-flow side card
                let d = next() * h * 0.4
                corners = [Point2(x, y), Point2(x + w * 0.6, y + d), Point2(x + w * 0.6, y + h - d), Point2(x, y + h)]
            }
            quads.append(Quad(texture: tex, corners: corners, alpha: alpha))
        }
        return quads
    }

    private static let background: UInt32 = 0xFF18_1A26

    /// Every pixel of `a` equals `b`'s; else how many differ and the first four. Row by row with
    /// `memcmp` (`PixelComparison`): a `(0..<count).filter` over the pixels took up to 40 % of
    /// these tests' time in a debug build.
    private func assertSame(_ a: Canvas, _ b: Canvas, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard a.width == b.width, a.height == b.height else {
            return XCTFail("\(what): \(a.width)×\(a.height) against \(b.width)×\(b.height)", file: file, line: line)
        }
        let bad = PixelComparison.differences(a.pixels, stride: a.stride, b.pixels, stride: b.stride,
                                              columns: 0..<a.width, rows: 0..<a.height)
        XCTAssertTrue(bad.count == 0, "\(what): \(bad.count) pixels differ, first "
                      + bad.first.map(\.description).joined(separator: " "), file: file, line: line)
    }

    private var instructionSets: [InstructionSet] { InstructionSet.allCases.filter(\.isAvailable) }

    /// `prepared` drawn by one portable band worker set up by `configure`, over a `width` ×
    /// `height` canvas of the background (and `backdrop`, when given).
    private func drawn(_ prepared: [PreparedQuad], _ width: Int, _ height: Int, backdrop: Backdrop?,
                       _ configure: (BandWorker) -> Void) -> Canvas {
        let c = RT.canvas(width, height, Self.background)
        let worker = BandWorker()
        configure(worker)
        worker.draw(prepared, rows: 0..<height, columns: 0..<width, pixels: c.pixels, stride: c.stride,
                    occlusion: true, backdrop: backdrop)
        return c
    }

    func testAVX2IsUsedWhereTheCPUHasIt() throws {
        try XCTSkipUnless(InstructionSet.avx2.isAvailable, "this CPU has no AVX2 (the baseline loops are used)")
        XCTAssertEqual(Compositor().instructionSet, .avx2)
        XCTAssertEqual(Compositor(instructionSet: .baseline).instructionSet, .baseline)
    }

    func testNEONIsUsedOnAArch64() throws {
        #if arch(arm64)
        XCTAssertTrue(InstructionSet.neon.isAvailable)
        XCTAssertEqual(Compositor().instructionSet, .neon)
        XCTAssertEqual(Compositor(instructionSet: .baseline).instructionSet, .baseline)
        #else
        XCTAssertFalse(InstructionSet.neon.isAvailable)
        #endif
    }

    /// A build holds the loops of its own architecture only: what `--version` lists as built.
    func testEachBuildHoldsItsArchitecturesLoops() {
        #if arch(arm64)
        XCTAssertEqual(InstructionSet.allCases.filter(\.isBuilt), [.baseline, .neon])
        #elseif arch(x86_64)
        XCTAssertEqual(InstructionSet.allCases.filter(\.isBuilt), [.baseline, .v2, .avx2])
        #endif
        for set in InstructionSet.allCases where set.isAvailable { XCTAssertTrue(set.isBuilt, "\(set) runs, so it is built") }
    }

    /// The best set the CPU has is the default: AVX2, else x86-64-v2, else NEON (AArch64), else
    /// the baseline. Every x86-64 CPU with AVX2 has x86-64-v2 too, and each module reports its own set.
    func testBestIsTheWidestAvailableSet() {
        let expected: InstructionSet = InstructionSet.avx2.isAvailable ? .avx2
            : (InstructionSet.v2.isAvailable ? .v2 : (InstructionSet.neon.isAvailable ? .neon : .baseline))
        XCTAssertEqual(InstructionSet.best, expected)
        XCTAssertEqual(Compositor().instructionSet, expected)
        if InstructionSet.avx2.isAvailable { XCTAssertTrue(InstructionSet.v2.isAvailable) }
        for set in instructionSets {
            XCTAssertEqual(Compositor(instructionSet: set).instructionSet, set)
            XCTAssertEqual(set.makeKernels().instructionSet, set.rawValue)
        }
        XCTAssertEqual(InstructionSet(rawValue: "x86-64-v2"), .v2)
        #if arch(x86_64)
        XCTAssertTrue(InstructionSet.v2.isAvailable || raster_cpu_has_x86_64_v2() == 0, "x86-64-v2 build present")
        #endif
    }

    /// Every available build against the baseline's pixels, on random scenes of every quad kind
    /// and with every filter.
    func testInstructionSetsDrawTheSamePixels() throws {
        try XCTSkipUnless(instructionSets.count > 1, "only one instruction set on this CPU")
        for seed in 1...6 as ClosedRange<UInt64> {
            let quads = Self.scene(seed: seed, width: 160, height: 100)
            for filter in TextureFilter.allCases {
                if filter == .mipmap { quads.forEach { $0.texture.buildMipLevels() } }
                let frames = instructionSets.map { set -> Canvas in
                    let c = RT.canvas(160, 100, Self.background)
                    Compositor(filter: filter, instructionSet: set).draw(quads, into: c)
                    return c
                }
                for (set, frame) in zip(instructionSets, frames).dropFirst() {
                    assertSame(frames[0], frame, "seed \(seed) \(filter): baseline vs \(set)")
                }
            }
        }
    }

    /// Bigger random scenes (many blocks per run, long runs, chunks) over a colour, an image and
    /// the frame, with 1 and 3 threads: every available build draws the baseline's pixels.
    func testInstructionSetsDrawTheSamePixelsOnBigScenes() throws {
        try XCTSkipUnless(instructionSets.count > 1, "only one instruction set on this CPU")
        let image = Canvas(width: 480, height: 300)
        for y in 0..<300 { for x in 0..<480 { image[x, y] = 0xFF00_0000 | UInt32(x & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | UInt32((x ^ y) & 0xFF) } }
        for seed in 21...26 as ClosedRange<UInt64> {
            let quads = Self.scene(seed: seed, width: 480, height: 300).map {
                // Scaled up about the frame's centre, so runs span many blocks.
                Quad(texture: $0.texture, corners: $0.corners.map { Point2(240 + ($0.x - 240) * 2.5, 150 + ($0.y - 150) * 2.5) }, alpha: $0.alpha)
            }
            for backdrop in [nil, Backdrop.color(Self.background), Backdrop.image(image)] {
                let frames = instructionSets.map { set -> Canvas in
                    let c = RT.canvas(480, 300, Self.background)
                    Compositor(filter: .bilinear, threads: seed % 2 == 0 ? 3 : 1, instructionSet: set).draw(quads, into: c, backdrop: backdrop)
                    return c
                }
                for (set, frame) in zip(instructionSets, frames).dropFirst() {
                    assertSame(frames[0], frame, "seed \(seed) backdrop \(String(describing: backdrop)): baseline vs \(set)")
                }
            }
        }
    }

    func testColorBackdropMatchesFillingFirst() {
        for set in instructionSets {
            for seed in 1...6 as ClosedRange<UInt64> {
                let quads = Self.scene(seed: seed, width: 160, height: 100)
                for occlusion in [true, false] {
                    let filled = RT.canvas(160, 100, Self.background)
                    let plain = Compositor(filter: .bilinear, instructionSet: set)
                    plain.occlusionCulling = occlusion
                    plain.draw(quads, into: filled)
                    let lazy = RT.canvas(160, 100, 0xFF12_3456)  // garbage the backdrop must replace
                    let compositor = Compositor(filter: .bilinear, threads: seed % 2 == 0 ? 3 : 1, instructionSet: set)
                    compositor.occlusionCulling = occlusion
                    compositor.draw(quads, into: lazy, backdrop: .color(Self.background))
                    assertSame(filled, lazy, "\(set) seed \(seed) occlusion \(occlusion)")
                }
            }
        }
    }

    func testImageBackdropMatchesCopyingFirst() {
        let image = Canvas(width: 160, height: 100)
        for y in 0..<100 { for x in 0..<160 { image[x, y] = 0xFF00_0000 | UInt32(x) << 16 | UInt32(y * 2) << 8 | UInt32((x + y) % 256) } }
        for set in instructionSets {
            for seed in 7...10 as ClosedRange<UInt64> {
                let quads = Self.scene(seed: seed, width: 160, height: 100)
                let copied = Canvas(width: 160, height: 100)
                copied.copy(from: image, x: 0, y: 0, width: 160, height: 100)
                Compositor(filter: .bilinear, instructionSet: set).draw(quads, into: copied)
                let lazy = RT.canvas(160, 100, 0xFF65_4321)
                Compositor(filter: .bilinear, instructionSet: set).draw(quads, into: lazy, backdrop: .image(image))
                assertSame(copied, lazy, "\(set) seed \(seed)")
            }
        }
    }

    /// A clip touches only its own pixels, backdrop included.
    func testBackdropStaysInsideTheClip() {
        let quads = Self.scene(seed: 3, width: 160, height: 100)
        let clip = PixelRect(x: 37, y: 21, width: 61, height: 40)
        let full = RT.canvas(160, 100, Self.background)
        Compositor(filter: .bilinear).draw(quads, into: full)
        let part = RT.canvas(160, 100, 0xFF00_FF00)
        Compositor(filter: .bilinear).draw(quads, into: part, clip: clip, backdrop: .color(Self.background))
        for y in 0..<100 {
            for x in 0..<160 {
                let inside = (37..<98).contains(x) && (21..<61).contains(y)
                XCTAssertEqual(part[x, y], inside ? full[x, y] : 0xFF00_FF00, "pixel \(x),\(y)")
            }
        }
    }

    /// More quads side by side on one row than the painted-columns record holds per row
    /// (`RowIntervals.capacity`): the row is resolved (backdrop written into its gaps) rather
    /// than a painted piece forgotten and painted over.
    func testManyQuadsInOneRowOverABackdrop() {
        var quads: [Quad] = []
        for i in 0..<(RowIntervals.capacity * 3) {
            let x = Double(i * 12) + 0.5  // apart, so that their painted columns do not merge
            quads.append(Quad(texture: Self.glass, corners: RT.rect(x, 3.25, x + 6, 17), alpha: 0.8))
        }
        quads.append(Quad(texture: Self.card(40, 12, seed: 5), corners: RT.rect(4.5, 8, 215, 14), alpha: 0.6))
        for set in instructionSets {
            let filled = RT.canvas(230, 20, Self.background)
            Compositor(filter: .bilinear, instructionSet: set).draw(quads, into: filled)
            let lazy = RT.canvas(230, 20, 0xFF00_0000)
            Compositor(filter: .bilinear, instructionSet: set).draw(quads, into: lazy, backdrop: .color(Self.background))
            assertSame(filled, lazy, "\(set)")
        }
    }

    /// Nothing to draw still writes the backdrop.
    func testEmptySceneWritesTheBackdrop() {
        let c = RT.canvas(20, 10, 0xFF00_0000)
        Compositor().draw([], into: c, backdrop: .color(0x0011_2233))
        XCTAssertTrue((0..<200).allSatisfy { c.pixels[$0] == 0xFF11_2233 })
    }

    /// Axis-aligned cards at scales from ½ up go through the row filter's window loads (AVX2:
    /// 8 or 16 texels spread with `vpermd`; baseline: the `BlockShape`s near 1), below ½ through
    /// its gather or (minified below ½ vertically) the single-pass loop, also at the
    /// right end of a texture row where a window would not fit; 5-pixel strips force the
    /// single-pass gather loop. Same pixels.
    func testWindowedRowLoadsMatchTheSinglePassLoop() {
        let tex = Self.card(120, 40, seed: 9)
        for scale in [0.23, 0.26, 0.29, 0.314, 0.33, 0.36, 0.41, 0.45, 0.5, 0.53, 0.7, 0.81, 0.93, 0.97, 0.999, 1.003, 1.04, 1.3, 1.34, 1.5, 1.9, 2.6, 4.1] {
            let quads = [Quad(texture: tex, corners: RT.rect(2.25, 1.5, 2.25 + 120 * scale, 1.5 + 40 * scale), alpha: 0.85),
                         Quad(texture: Self.glass, corners: RT.rect(50.5, 10, 50.5 + 29 * scale, 10 + 19 * scale)),
                         // mirrored: texel columns fall from left to right
                         Quad(texture: tex, corners: RT.rect(160, 30, 160 - 120 * scale, 30 + 40 * scale), alpha: 0.9),
                         // scaled across only: the row filter at every horizontal scale
                         Quad(texture: tex, corners: RT.rect(120.25, 65.5, 120.25 + 120 * scale, 105.5), alpha: 0.95)]
            for set in instructionSets {
                let whole = RT.canvas(240, 110), strips = RT.canvas(240, 110)
                Compositor(filter: .bilinear, instructionSet: set).draw(quads, into: whole)
                let narrow = Compositor(filter: .bilinear, instructionSet: set)
                for x in stride(from: 0, to: 240, by: 5) {
                    narrow.draw(quads, into: strips, clip: PixelRect(x: x, y: 0, width: 5, height: 110))
                }
                assertSame(whole, strips, "\(set) scale \(scale)")
            }
        }
    }

    /// Affine and projective runs: the chunked two-pass loop (chunks, edge and interior pixels in
    /// one call, texel pairs, opaque and translucent textures, alpha, mirrored and clipped
    /// quads, runs of every length) draws exactly what the single-pass loop draws.
    func testChunkedLoopMatchesTheSinglePassLoop() {
        for seed in 11...16 as ClosedRange<UInt64> {
            var quads = Self.scene(seed: seed, width: 600, height: 260)
            // Wide rotated and projective cards, one above the other in front of the rest: runs
            // longer than a chunk (`GatherScratch.chunk`, at most 300 pixels here).
            let wide = Self.card(97, 61, seed: UInt32(seed))
            let a = Double(seed - 10) * 0.05, c = cos(a), s = sin(a)
            quads.append(Quad(texture: wide, corners: [Point2(0, 0), Point2(420, 0), Point2(420, 90), Point2(0, 90)].map {
                Point2(60 + $0.x * c - $0.y * s, 10 + $0.x * s + $0.y * c)
            }, alpha: seed % 2 == 0 ? 1 : 0.7))
            quads.append(Quad(texture: wide, corners: [Point2(-20.5, 150), Point2(560, 170), Point2(560, 230), Point2(-20.5, 250)]))
            XCTAssertLessThan(GatherScratch.chunk, 300)
            let prepared = quads.compactMap { PreparedQuad($0, clip: PixelRect(x: 0, y: 0, width: 600, height: 260), filter: .bilinear) }
            XCTAssertTrue(prepared.contains { $0.sampler.kind == .affine } && prepared.contains { $0.sampler.kind == .projective })
            for backdrop in [nil, Backdrop.color(Self.background)] {
                let frames = [true, false].map { chunked in drawn(prepared, 600, 260, backdrop: backdrop) { $0.chunkedLoop = chunked } }
                assertSame(frames[0], frames[1], "seed \(seed) backdrop \(backdrop != nil): chunked vs single-pass")
            }
        }
    }

    /// Projective cards with vertical sides (turned about the vertical axis, as cover flows and
    /// cylinders draw them) take 1/w and u from a table per screen column (`ProjectiveColumns`),
    /// and cards with horizontal top and bottom (a vertical cover flow) 1/w and v once per row;
    /// every pixel is the same as with them worked out per pixel. Cards facing either way,
    /// mirrored, translucent, wider than a chunk, reaching past the frame's edges, split into
    /// runs by an opaque card in front, over a colour and over the frame, in every instruction
    /// set. A card with neither pair of sides parallel computes per pixel.
    func testPerspectiveShortcutsMatchPerPixelDepth() {
        let tex = Self.card(83, 57, seed: 3), wide = Self.card(300, 40, seed: 9)
        // A side card: left side h tall at x0, right side h − 2d tall at x1 (d < 0: the other way).
        func side(_ x0: Double, _ x1: Double, _ y: Double, _ h: Double, _ d: Double) -> [Point2] {
            [Point2(x0, y), Point2(x1, y + d), Point2(x1, y + h - d), Point2(x0, y + h)]
        }
        // Turned about the horizontal axis: top w wide at y0, bottom w − 2d wide at y1.
        func tipped(_ x: Double, _ w: Double, _ y0: Double, _ y1: Double, _ d: Double) -> [Point2] {
            [Point2(x, y0), Point2(x + w, y0), Point2(x + w - d, y1), Point2(x + d, y1)]
        }
        var quads = [Quad(texture: tex, corners: side(-30.5, 140.25, 10.5, 120, 25)),
                     Quad(texture: tex, corners: side(420.75, 610.5, 30.25, 110, -20), alpha: 0.75),
                     Quad(texture: wide, corners: side(60.3, 400.6, 140.4, 70, 12))]
        // Mirrored (u falls from left to right).
        quads.append(Quad(texture: tex, corners: { c in [c[1], c[0], c[3], c[2]] }(side(250.5, 380.5, 5.5, 100, -15))))
        // Horizontal top and bottom: wider than a chunk and past the left edge, translucent,
        // upside down (v falls down the screen).
        quads.append(Quad(texture: wide, corners: tipped(-20.5, 400.25, 180.3, 236.6, 30)))
        quads.append(Quad(texture: tex, corners: tipped(470.5, 120, 120.5, 190.25, -14), alpha: 0.6))
        quads.append(Quad(texture: tex, corners: { c in [c[3], c[2], c[1], c[0]] }(tipped(300.5, 90, 60.5, 130.5, 12))))
        // An opaque card in front, splitting the runs of the cards behind it.
        quads.append(Quad(texture: Self.card(30, 30, seed: 5), corners: RT.rect(150.5, 130.5, 190.5, 220.5)))
        // Neither pair of sides parallel: per pixel.
        quads.append(Quad(texture: tex, corners: [Point2(450, 150), Point2(590, 165), Point2(585, 230), Point2(452, 245)]))
        let clip = PixelRect(x: 0, y: 0, width: 600, height: 250)
        let prepared = quads.compactMap { PreparedQuad($0, clip: clip, filter: .bilinear) }
        XCTAssertEqual(prepared.map { ProjectiveColumns.applies(to: $0.sampler) },
                       [true, true, true, true, false, false, false, false, false])
        XCTAssertEqual(prepared.map { $0.sampler.kind == .projective && $0.sampler.vm.0 == 0 && $0.sampler.wm.0 == 0 },
                       [false, false, false, false, true, true, true, false, false])
        XCTAssertEqual(prepared.last?.sampler.kind, .projective)
        XCTAssertGreaterThan(340, GatherScratch.chunk, "the wide card's runs span more than a chunk")
        for backdrop in [nil, Backdrop.color(Self.background)] {
            let frames = [true, false].map { tables in drawn(prepared, 600, 250, backdrop: backdrop) { $0.depthShortcuts = tables } }
            assertSame(frames[0], frames[1], "backdrop \(backdrop != nil): shortcuts vs per pixel")
            // The other builds' loops (tables on) against the portable per-pixel frame.
            for set in instructionSets {
                let c = RT.canvas(600, 250, Self.background)
                let compositor = Compositor(filter: .bilinear, instructionSet: set)
                if let backdrop { compositor.draw(quads, into: c, backdrop: backdrop) } else { compositor.draw(quads, into: c) }
                assertSame(c, frames[1], "\(set) backdrop \(backdrop != nil): shortcuts vs per pixel")
            }
        }
    }

    /// Affine rows step 16.16 fixed-point coordinates. A card turned by 90° at scale 1 puts
    /// every pixel centre on a texel centre, so its interior reproduces the texels exactly, in
    /// both loops. A texture too wide for the fixed point (40 000 texels) takes the Float path
    /// instead, again with the same pixels from both loops.
    func testAffineRowsInFixedPoint() {
        let tex = Texture(width: 40, height: 30) { x, y in 0xFF00_0000 | UInt32(x * 6) << 16 | UInt32(y * 8) << 8 | UInt32((x * y) & 0xFF) }
        // Texture corners TL, TR, BR, BL: u runs down the screen, v to the left.
        let turned = Quad(texture: tex, corners: [Point2(70, 10), Point2(70, 50), Point2(40, 50), Point2(40, 10)])
        let wide = Texture(width: 40_000, height: 2) { x, y in 0xFF00_0000 | UInt32((x / 7) & 0xFF) << 8 | UInt32(y * 200) }
        let a = 0.3, c = cos(a), s = sin(a)
        let sliver = Quad(texture: wide, corners: [Point2(0, 0), Point2(200, 0), Point2(200, 12), Point2(0, 12)].map {
            Point2(90 + $0.x * c - $0.y * s, 8 + $0.x * s + $0.y * c)
        })
        let clip = PixelRect(x: 0, y: 0, width: 300, height: 90)
        let prepared = [turned, sliver].compactMap { PreparedQuad($0, clip: clip, filter: .bilinear) }
        XCTAssertEqual(prepared.map(\.sampler.kind), [.affine, .affine])
        XCTAssertNotNil(SpanShader.fixedRow(prepared[0].sampler, y: 30))
        XCTAssertNil(SpanShader.fixedRow(prepared[1].sampler, y: 60))
        let frames = [true, false].map { chunked in drawn(prepared, 300, 90, backdrop: .color(Self.background)) { $0.chunkedLoop = chunked } }
        assertSame(frames[0], frames[1], "chunked vs single-pass")
        // Pixel (x, y) shows texel (y − 10, 69 − x); the outline's columns and rows are blended.
        for y in 11..<49 {
            for x in 41..<69 where frames[0].pixels[y * 300 + x] != tex.pixels[(69 - x) * 40 + (y - 10)] {
                return XCTFail("pixel \(x),\(y): \(frames[0].pixels[y * 300 + x]) is not texel \(y - 10),\(69 - x)")
            }
        }
    }

    /// A card whose rows are split into pieces: columns already painted by a card behind it
    /// alternate with columns still showing the backdrop, and an opaque card in front cuts each
    /// row into two visible runs. The separable path filters each texture row once over a
    /// whole run and serves every piece from it (at the piece's offset), the card's partly
    /// covered outline columns included (`edgeOver`); drawing in 5-pixel strips sends every
    /// pixel through the single-pass loop instead. Same pixels, minified
    /// (down to 0.3×) and magnified, mirrored too, over a colour and over the frame.
    func testPiecesOfARunShareFilteredRows() {
        let tex = Self.card(120, 40, seed: 4), behind = Self.card(30, 30, seed: 8), front = Self.card(20, 20, seed: 2)
        for scale in [0.3, 0.45, 0.62, 0.8, 1.0, 1.35] {
            for mirrored in [false, true] {
                let w = 120 * scale * 1.6, h = 40 * scale * 1.6
                var corners = RT.rect(6.3, 4.6, 6.3 + w, 4.6 + h)
                if mirrored { corners = [corners[1], corners[0], corners[3], corners[2]] }
                // Back to front: two cards under the middle of the wide one, one in front of it.
                let quads = [Quad(texture: behind, corners: RT.rect(6.3 + w * 0.3, 1.5, 6.3 + w * 0.45, 4.6 + h + 3)),
                             Quad(texture: Self.glass, corners: RT.rect(6.3 + w * 0.6, 2.25, 6.3 + w * 0.7, 4.6 + h * 0.7), alpha: 0.7),
                             Quad(texture: tex, corners: corners, alpha: mirrored ? 0.8 : 1),
                             Quad(texture: front, corners: RT.rect(6.3 + w * 0.8, 4.6 + h * 0.3, 6.3 + w * 0.85, 4.6 + h * 0.8))]
                let width = Int(w) + 14, height = Int(h) + 12
                for set in instructionSets {
                    for backdrop in [true, false] {
                        let whole = RT.canvas(width, height), strips = RT.canvas(width, height)
                        let compositor = Compositor(filter: .bilinear, instructionSet: set)
                        let narrow = Compositor(filter: .bilinear, instructionSet: set)
                        if backdrop {
                            compositor.draw(quads, into: whole, backdrop: .color(Self.background))
                        } else {
                            compositor.draw(quads, into: whole)
                        }
                        for x in stride(from: 0, to: width, by: 5) {
                            let clip = PixelRect(x: x, y: 0, width: min(5, width - x), height: height)
                            if backdrop {
                                narrow.draw(quads, into: strips, clip: clip, backdrop: .color(Self.background))
                            } else {
                                narrow.draw(quads, into: strips, clip: clip)
                            }
                        }
                        assertSame(whole, strips, "\(set) scale \(scale) mirrored \(mirrored) backdrop \(backdrop)")
                    }
                }
            }
        }
    }

    func testBlockShapes() {
        func shape(_ t: [Int32], adjacent: Bool = true) -> BlockShape {
            t.withUnsafeBufferPointer { BlockShape($0.baseAddress!, adjacent: adjacent) }
        }
        XCTAssertEqual(shape([5, 6, 7, 8, 9, 10, 11, 12]), .consecutive)
        XCTAssertEqual(shape([5, 6, 7, 9, 10, 11, 12, 13]), .skipsOne)
        XCTAssertEqual(shape([5, 7, 8, 9, 10, 11, 12, 13]), .skipsOne)
        XCTAssertEqual(shape([5, 6, 7, 7, 8, 9, 10, 11]), .repeatsOne)
        XCTAssertEqual(shape([5, 6, 7, 8, 9, 10, 11, 11]), .repeatsOne)
        XCTAssertEqual(shape([5, 6, 8, 9, 11, 12, 13, 14]), .gather, "two skips")
        XCTAssertEqual(shape([5, 5, 6, 6, 7, 8, 9, 10]), .gather, "two repeats")
        XCTAssertEqual(shape([5, 7, 7, 8, 9, 10, 11, 12]), .gather, "a skip then a repeat")
        XCTAssertEqual(shape([12, 11, 10, 9, 8, 7, 6, 5]), .gather, "mirrored")
        XCTAssertEqual(shape([5, 6, 7, 8, 9, 10, 11, 12], adjacent: false), .gather, "one-texel-wide level")
    }

    /// The x86-64-v2 build's kinds: the baseline's, else 4-texel windows per half where each
    /// half's texels and right neighbours fit (magnified), mirrored too, inside the row.
    func testHalfWindowShapes() {
        func halves(_ t: [Int32], width: Int = 100, adjacent: Bool = true, mirrored: Bool = false) -> BlockShape {
            t.withUnsafeBufferPointer { BlockShape(halvesOf: $0.baseAddress!, adjacent: adjacent, texWidth: width, mirrored: mirrored) }
        }
        XCTAssertEqual(halves([5, 6, 7, 8, 9, 10, 11, 12]), .consecutive, "the baseline's kinds first")
        XCTAssertEqual(halves([5, 5, 6, 7, 7, 8, 9, 9]), .halves4, "1.5×")
        XCTAssertEqual(halves([5, 5, 5, 6, 6, 6, 7, 7]), .halves4, "3×")
        XCTAssertEqual(halves([9, 9, 8, 7, 7, 6, 5, 5], mirrored: true), .halves4, "1.5× mirrored")
        XCTAssertEqual(halves([9, 9, 8, 7, 7, 6, 5, 5]), .gather, "mirrored texels, read as not mirrored")
        XCTAssertEqual(halves([5, 5, 6, 8, 8, 9, 10, 11]), .gather, "a half spreads 3")
        XCTAssertEqual(halves([5, 5, 6, 7, 7, 8, 9, 9], width: 12), .halves4, "texels 7...10 fit")
        XCTAssertEqual(halves([5, 5, 6, 7, 7, 8, 9, 9], width: 10), .gather, "the second half's window would pass the end")
        XCTAssertEqual(halves([5, 5, 6, 7, 7, 8, 9, 9], adjacent: false), .gather, "one-texel-wide level")
    }

    /// The AVX2 build's kinds: windows of 8 or 16 texels from the lowest, mirrored too, only
    /// where the window and the right neighbours stay inside the texture row.
    func testWindowShapes() {
        func window(_ t: [Int32], width: Int = 100, adjacent: Bool = true) -> BlockShape {
            t.withUnsafeBufferPointer { BlockShape(windowOf: $0.baseAddress!, adjacent: adjacent, texWidth: width) }
        }
        XCTAssertEqual(window([5, 6, 7, 8, 9, 10, 11, 12]), .window8)
        XCTAssertEqual(window([5, 6, 7, 8, 9, 10, 11, 12], width: 14), .window8, "texels 5...13 fit")
        XCTAssertEqual(window([5, 6, 7, 8, 9, 10, 11, 12], width: 13), .gather, "the window would pass the end")
        XCTAssertEqual(window([12, 11, 10, 9, 8, 7, 6, 5]), .window8, "mirrored")
        XCTAssertEqual(window([5, 7, 9, 11, 13, 15, 17, 19]), .window16, "½×")
        XCTAssertEqual(window([19, 17, 15, 13, 11, 9, 7, 5]), .window16, "½× mirrored")
        XCTAssertEqual(window([5, 7, 9, 11, 13, 15, 17, 19], width: 21), .gather, "two windows would pass the end")
        XCTAssertEqual(window([5, 7, 9, 11, 13, 15, 17, 21]), .gather, "spread 16")
        XCTAssertEqual(window([5, 6, 7, 8, 9, 10, 11, 12], adjacent: false), .gather, "one-texel-wide level")
    }
}
