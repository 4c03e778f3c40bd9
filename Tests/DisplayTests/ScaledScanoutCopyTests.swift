import CarouselCore
import Raster
import XCTest
@testable import Display

/// `render_scale`: the scan-out copy enlarges a smaller frame in the same pass that rotates it.
final class ScaledScanoutCopyTests: XCTestCase {
    /// The logical pixel shown at physical (px, py): `DisplayRotation`'s table inverted.
    func logical(_ r: DisplayRotation, px: Int, py: Int, lw: Int, lh: Int) -> (Int, Int) {
        switch r {
        case .none: return (px, py)
        case .clockwise90: return (py, lh - 1 - px)
        case .upsideDown: return (lw - 1 - px, lh - 1 - py)
        case .clockwise270: return (lw - 1 - py, px)
        }
    }

    func randomFrame(width: Int, height: Int, seed: UInt64) -> Canvas {
        var g = SplitMix(seed)
        let c = Canvas(width: width, height: height)
        for y in 0..<height { for x in 0..<width { c[x, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: g.next()) & 0xFF_FFFF } }
        return c
    }

    /// A buffer of the physical size for a logical `lw × lh`, with padded pitch, filled with `fill`.
    final class Buffer {
        let mem: UnsafeMutablePointer<UInt32>
        let pitchPixels: Int
        let scanout: ScanoutBuffer
        init(rotation: DisplayRotation, lw: Int, lh: Int, fill: UInt32 = 0xDEAD_BEEF) {
            let (pw, ph) = rotation.swapsAxes ? (lh, lw) : (lw, lh)
            pitchPixels = pw + 3
            mem = .allocate(capacity: pitchPixels * ph)
            mem.initialize(repeating: fill, count: pitchPixels * ph)
            scanout = ScanoutBuffer(base: UnsafeMutableRawPointer(mem), pitch: pitchPixels * 4, width: pw, height: ph, format: .xrgb8888)
        }
        deinit { mem.deallocate() }
        subscript(x: Int, y: Int) -> UInt32 { mem[y * pitchPixels + x] }
        var pixels: [UInt32] {
            (0..<scanout.height).flatMap { y in (0..<scanout.width).map { self[$0, y] } }
        }
    }

    func testHalfScaleDoublesEveryPixelExactlyInEveryRotation() {
        // Odd logical sizes: the last row and column are the last scene pixel's first half.
        for (lw, lh) in [(150, 97), (128, 64)] {
            let (sw, sh) = RenderScale.sceneSize(width: lw, height: lh, scale: 0.5)
            let frame = randomFrame(width: sw, height: sh, seed: 7)
            let copier = ScanoutCopier(filter: .pixelDoubling)
            for rotation in DisplayRotation.allCases {
                let b = Buffer(rotation: rotation, lw: lw, lh: lh)
                XCTAssertEqual(copier.copy(frame.bounds, from: frame, to: b.scanout, rotation: rotation), lw * lh)
                for py in 0..<b.scanout.height { for px in 0..<b.scanout.width {
                    let (x, y) = logical(rotation, px: px, py: py, lw: lw, lh: lh)
                    if b[px, py] != frame[x / 2, y / 2] { return XCTFail("\(rotation) \(lw)x\(lh): physical \(px),\(py)") }
                } }
                XCTAssertEqual(b.mem[b.scanout.width], 0xDEAD_BEEF, "the pitch padding is never written")
            }
        }
    }

    /// Bilinear in doubles, pixel centres aligned, edges clamped: what the copy approximates.
    func reference(_ f: Canvas, lx: Int, ly: Int, lw: Int, lh: Int) -> [Double] {
        func axis(_ d: Int, _ scene: Int, _ screen: Int) -> (Int, Int, Double) {
            let s = min(max(0, (Double(d) + 0.5) * Double(scene) / Double(screen) - 0.5), Double(scene - 1))
            let i = Int(s.rounded(.down))
            return (i, min(i + 1, scene - 1), s - Double(i))
        }
        let (x0, x1, fx) = axis(lx, f.width, lw), (y0, y1, fy) = axis(ly, f.height, lh)
        return [0, 8, 16, 24].map { shift -> Double in
            func c(_ x: Int, _ y: Int) -> Double { Double((f[x, y] >> UInt32(shift)) & 0xFF) }
            let top = c(x0, y0) * (1 - fx) + c(x1, y0) * fx, bottom = c(x0, y1) * (1 - fx) + c(x1, y1) * fx
            return top * (1 - fy) + bottom * fy
        }
    }

    func testBilinearMatchesTheReferenceInEveryRotation() {
        for (lw, lh, scale) in [(150, 97, 0.5), (150, 97, 0.75), (131, 70, 0.6)] {
            let (sw, sh) = RenderScale.sceneSize(width: lw, height: lh, scale: scale)
            let frame = randomFrame(width: sw, height: sh, seed: 11)
            let copier = ScanoutCopier(filter: .bilinear)
            for rotation in DisplayRotation.allCases {
                let b = Buffer(rotation: rotation, lw: lw, lh: lh)
                copier.copy(frame.bounds, from: frame, to: b.scanout, rotation: rotation)
                var worst = 0.0
                for py in 0..<b.scanout.height { for px in 0..<b.scanout.width {
                    let (x, y) = logical(rotation, px: px, py: py, lw: lw, lh: lh)
                    let want = reference(frame, lx: x, ly: y, lw: lw, lh: lh)
                    for (k, shift) in [0, 8, 16, 24].enumerated() {
                        worst = max(worst, abs(Double((b[px, py] >> UInt32(shift)) & 0xFF) - want[k]))
                    }
                } }
                // 8-bit weights and a rounding at each of the two mixes.
                XCTAssertLessThanOrEqual(worst, 1.5, "\(rotation) \(lw)x\(lh) at \(scale)")
            }
        }
    }

    /// Damage grown by the enlargement: after the old frame was copied whole and the new one's
    /// damaged rectangles are copied, the buffer equals a whole copy of the new frame (no stale
    /// pixel), for both filters, every rotation and several scales.
    func testDamagedCopyLeavesNoStalePixel() {
        var g = SplitMix(5)
        for (lw, lh, scale) in [(150, 97, 0.5), (160, 90, 0.5), (150, 97, 0.75), (131, 70, 0.6)] {
            let (sw, sh) = RenderScale.sceneSize(width: lw, height: lh, scale: scale)
            let old = randomFrame(width: sw, height: sh, seed: 1)
            for filter in ScaleFilter.allCases {
                let copier = ScanoutCopier(filter: filter)
                for rotation in DisplayRotation.allCases {
                    for _ in 0..<6 {
                        let new = Canvas(width: sw, height: sh)
                        new.copy(from: old, x: 0, y: 0, width: sw, height: sh)
                        var rects: [PixelRect] = []
                        for _ in 0..<Int(g.next() % 3 + 1) {
                            let x = Int(g.next() % UInt64(sw)), y = Int(g.next() % UInt64(sh))
                            let r = PixelRect(x: x, y: y, width: Int(g.next() % UInt64(sw - x)) + 1, height: Int(g.next() % UInt64(sh - y)) + 1)
                            for yy in r.y..<r.maxY { for xx in r.x..<r.maxX { new[xx, yy] = 0xFF00_0000 | UInt32(truncatingIfNeeded: g.next()) & 0xFF_FFFF } }
                            rects.append(r)
                        }
                        let damaged = Buffer(rotation: rotation, lw: lw, lh: lh), whole = Buffer(rotation: rotation, lw: lw, lh: lh)
                        copier.copy(old.bounds, from: old, to: damaged.scanout, rotation: rotation)
                        for r in rects { copier.copy(r, from: new, to: damaged.scanout, rotation: rotation) }
                        copier.copy(new.bounds, from: new, to: whole.scanout, rotation: rotation)
                        if damaged.pixels != whole.pixels {
                            return XCTFail("\(filter) \(rotation) \(lw)x\(lh) at \(scale): stale pixels after \(rects)")
                        }
                    }
                }
            }
        }
    }

    func testGrownDamageStaysSmall() {
        // A 10×10 scene rectangle at ½: 20×20 doubled, (10 + 2)·2 = 24 bilinear at most.
        let x = ScaleAxis(scene: 960, screen: 1920, filter: .pixelDoubling)
        XCTAssertEqual(x.screenRange(sceneFrom: 100, to: 110), 200..<220)
        let b = ScaleAxis(scene: 960, screen: 1920, filter: .bilinear)
        XCTAssertEqual(b.screenRange(sceneFrom: 100, to: 110), 198..<222)
        XCTAssertEqual(b.screenRange(sceneFrom: 0, to: 960), 0..<1920)
        XCTAssertFalse(ScaleAxis(scene: 1440, screen: 1920, filter: .pixelDoubling).doubling, "only ½ doubles")
    }

    func testMixIsExactAtTheEnds() {
        for (a, b) in [(0xFF12_3456 as UInt32, 0x00AB_CDEF as UInt32), (0xFFFF_FFFF, 0), (0, 0xFFFF_FFFF)] {
            XCTAssertEqual(mixPixels(a, b, 0), a)
            XCTAssertEqual(mixPixels(a, b, 256), b)
        }
        XCTAssertEqual(mixPixels(0xFF00_0000, 0xFFFF_FFFF, 128), 0xFF80_8080)
    }

    func testHeadlessDisplayShowsTheEnlargedFrame() throws {
        let d = HeadlessDisplay(width: 64, height: 48, renderScale: 0.5)
        XCTAssertTrue(d.size == (32, 24))
        XCTAssertTrue(d.fullSize == (64, 48))
        let frame = randomFrame(width: 32, height: 24, seed: 3)
        try d.present(frame, damage: [frame.bounds])
        for y in 0..<48 { for x in 0..<64 where d.screen[x, y] != frame[x / 2, y / 2] { return XCTFail("\(x),\(y)") } }
        XCTAssertTrue(d.setRenderScale(1))
        XCTAssertTrue(d.size == (64, 48))
        XCTAssertFalse(d.setRenderScale(1))
    }
}

/// A small deterministic generator for test pictures.
struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
