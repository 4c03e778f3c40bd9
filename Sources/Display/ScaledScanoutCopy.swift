import CarouselCore
import Raster

/// One axis of an enlargement from `scene` pixels (the frame drawn at the render scale) to
/// `screen` pixels (the logical screen, before rotation).
///
/// Screen pixel `d` is sampled at its centre, `s = (d + ½)·scene/screen − ½` in scene pixels
/// (clamped to the frame): `index[d]` is `⌊s⌋` and `weight[d]` the share of pixel `index + 1` in
/// 256ths. With `doubling`, `index[d] = d / 2` and the weight is 0 (nearest of the two).
struct ScaleAxis: Equatable {
    let scene: Int
    let screen: Int
    let doubling: Bool
    let index: [Int]
    let weight: [UInt32]

    init(scene: Int, screen: Int, filter: ScaleFilter) {
        self.scene = scene
        self.screen = screen
        doubling = filter == .pixelDoubling && ScaleFilter.doubles(scene: scene, screen: screen)
        var index = [Int](repeating: 0, count: screen)
        var weight = [UInt32](repeating: 0, count: screen)
        if doubling {
            for d in 0..<screen { index[d] = d >> 1 }
        } else {
            let ratio = Double(scene) / Double(screen)
            for d in 0..<screen {
                let s = max(0, (Double(d) + 0.5) * ratio - 0.5)
                var i = Int(s.rounded(.down))
                var f = s - Double(i)
                if i >= scene - 1 { i = scene - 1; f = 0 }
                index[d] = i
                weight[d] = UInt32((f * 256).rounded())
            }
        }
        self.index = index
        self.weight = weight
    }

    /// The screen pixels whose value depends on scene pixels `a ..< b`: for bilinear, grown by
    /// one scene pixel each way (a screen pixel reads its neighbour), then scaled outward.
    func screenRange(sceneFrom a: Int, to b: Int) -> Range<Int> {
        guard a < b else { return 0..<0 }
        if doubling { return min(screen, 2 * a)..<min(screen, 2 * b) }
        let g0 = max(0, a - 1), g1 = min(scene, b + 1)
        return (g0 * screen / scene)..<min(screen, (g1 * screen + scene - 1) / scene)
    }
}

/// `a` and `b` mixed, `w`/256 of `b` (0…256), each 8-bit channel rounded; `w = 0` gives `a`
/// exactly. Two channels at a time in the 0x00FF00FF lanes.
@inline(__always)
func mixPixels(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let iw = 256 &- w
    let rb = ((a & 0x00FF_00FF) &* iw &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
    let ag = ((a >> 8) & 0x00FF_00FF) &* iw &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080
    return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
}

extension ScanoutCopier {
    /// The logical-screen rectangle that `rect` of a frame drawn at `scene` size changes when
    /// enlarged to `lw × lh` (grown as `ScaleAxis.screenRange` says).
    func screenRect(of rect: PixelRect, x xs: ScaleAxis, y ys: ScaleAxis) -> PixelRect {
        let cx = xs.screenRange(sceneFrom: rect.x, to: rect.maxX), cy = ys.screenRange(sceneFrom: rect.y, to: rect.maxY)
        return PixelRect(x: cx.lowerBound, y: cy.lowerBound, width: cx.count, height: cy.count)
    }

    /// Copies `rect` of `frame` (drawn smaller than the `lw × lh` logical screen) enlarged,
    /// rotated and converted: the scaled form of `copy`, in the same pass and write order (whole
    /// row segments, left to right; 64×64 tiles for 90°/270°). Returns the pixels written.
    func copyScaled(_ rect: PixelRect, from frame: Canvas, to buffer: ScanoutBuffer, rotation: DisplayRotation,
                    logicalWidth lw: Int, logicalHeight lh: Int) -> Int {
        let r = rect.intersection(frame.bounds)
        guard !r.isEmpty, frame.width <= lw, frame.height <= lh else { return 0 }
        let (xs, ys) = axes(sceneWidth: frame.width, sceneHeight: frame.height, screenWidth: lw, screenHeight: lh)
        let l = screenRect(of: r, x: xs, y: ys)
        guard !l.isEmpty else { return 0 }
        let p = rotation.physicalRect(l, logicalWidth: lw, logicalHeight: lh)
        guard p == p.intersection(PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)) else { return 0 }
        let src = UnsafePointer(frame.pixels), stride = frame.stride
        let sw = frame.width, sh = frame.height
        let doubling = xs.doubling && ys.doubling
        let scratch = self.scratch
        switch rotation {
        case .none, .upsideDown:
            let flip = rotation == .upsideDown
            let chunk = Self.tile * Self.tile
            for py in p.y..<p.maxY {
                let ly = flip ? lh - 1 - py : py
                let y0 = ys.index[ly], fy = ys.weight[ly]
                var x = p.x
                if doubling {
                    let row = src + y0 * stride
                    while x < p.maxX {
                        let n = min(chunk, p.maxX - x)
                        if flip {
                            for i in 0..<n { scratch[i] = row[(lw - 1 - (x + i)) >> 1] }
                        } else {
                            for i in 0..<n { scratch[i] = row[(x + i) >> 1] }
                        }
                        storeRow(scratch, count: n, to: buffer, x: x, y: py)
                        x += n
                    }
                    continue
                }
                // The scene columns this row reads, mixed vertically once into `line`.
                let lx0 = flip ? lw - p.maxX : p.x, lx1 = flip ? lw - 1 - p.x : p.maxX - 1
                let c0 = xs.index[lx0], c1 = min(sw - 1, xs.index[lx1] + 1)
                let line = lineBuffer(count: sw)
                let a = src + y0 * stride, b = src + min(y0 + 1, sh - 1) * stride
                if fy == 0 {
                    for c in c0...c1 { line[c] = a[c] }
                } else {
                    for c in c0...c1 { line[c] = mixPixels(a[c], b[c], fy) }
                }
                while x < p.maxX {
                    let n = min(chunk, p.maxX - x)
                    for i in 0..<n {
                        let lx = flip ? lw - 1 - (x + i) : x + i
                        let i0 = xs.index[lx]
                        scratch[i] = mixPixels(line[i0], line[min(i0 + 1, sw - 1)], xs.weight[lx])
                    }
                    storeRow(scratch, count: n, to: buffer, x: x, y: py)
                    x += n
                }
            }
        case .clockwise90, .clockwise270:
            let t = Self.tile
            let cw = rotation == .clockwise90
            var ty = p.y
            while ty < p.maxY {
                let th = min(t, p.maxY - ty)
                var tx = p.x
                while tx < p.maxX {
                    let tw = min(t, p.maxX - tx)
                    for row in 0..<th {
                        let py = ty + row
                        // 90°: physical (px, py) ← logical (py, lh − 1 − px); 270°: (lw − 1 − py, px).
                        let lx = cw ? py : lw - 1 - py
                        let x0 = xs.index[lx], x1 = min(x0 + 1, sw - 1), fx = xs.weight[lx]
                        for col in 0..<tw {
                            let px = tx + col
                            let ly = cw ? lh - 1 - px : px
                            let y0 = ys.index[ly]
                            if doubling {
                                scratch[row * tw + col] = src[y0 * stride + x0]
                            } else {
                                let a = src + y0 * stride, b = src + min(y0 + 1, sh - 1) * stride
                                scratch[row * tw + col] = mixPixels(mixPixels(a[x0], a[x1], fx), mixPixels(b[x0], b[x1], fx), ys.weight[ly])
                            }
                        }
                    }
                    for row in 0..<th { storeRow(scratch + row * tw, count: tw, to: buffer, x: tx, y: ty + row) }
                    tx += tw
                }
                ty += th
            }
        }
        return p.area
    }
}
