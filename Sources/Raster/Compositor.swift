import CarouselCore

/// Texture sampling for minified quads.
public enum TextureFilter: String, Sendable, CaseIterable {
    /// Bilinear from the full-size texture only.
    case bilinear
    /// Bilinear from the mip level that matches the on-screen footprint.
    case mipmap
}

/// Draws textured quads back to front into a canvas: perspective-correct bilinear sampling,
/// per-quad alpha, source-over onto an opaque frame.
public struct Compositor {
    public var filter: TextureFilter
    public init(filter: TextureFilter = .mipmap) { self.filter = filter }

    /// Draws `quads` (back to front) into `canvas`, touching only pixels inside `clip`.
    public func draw(_ quads: [Quad], into canvas: Canvas, clip: PixelRect? = nil) {
        let area = (clip ?? canvas.bounds).intersection(canvas.bounds)
        guard !area.isEmpty else { return }
        for q in quads where q.alpha > 0 { draw(q, into: canvas, area: area) }
    }

    private func draw(_ q: Quad, into canvas: Canvas, area: PixelRect) {
        let tex = q.texture
        guard let h = Homography.rectToQuad(width: Double(tex.width), height: Double(tex.height), q.corners),
              let inv = h.inverse else { return }
        let box = q.bounds.intersection(area)
        guard !box.isEmpty else { return }
        let alpha = UInt32(max(0, min(1, q.alpha)) * 256)
        let (a, b, c, d, e, f, g, hh, i) = inv.m
        let tw = Double(tex.width), th = Double(tex.height)
        for y in box.y..<box.maxY {
            let py = Double(y) + 0.5
            let row = canvas.pixels + y * canvas.stride
            for x in box.x..<box.maxX {
                let px = Double(x) + 0.5
                let w = g * px + hh * py + i
                guard w > 0 || w < 0 else { continue }
                let u = (a * px + b * py + c) / w, v = (d * px + e * py + f) / w
                guard u >= 0, v >= 0, u < tw, v < th else { continue }
                let s = Compositor.bilinear(tex, u - 0.5, v - 0.5)
                row[x] = Compositor.over(Compositor.scale(s, alpha), row[x])
            }
        }
    }

    @inline(__always) static func bilinear(_ t: Texture, _ u: Double, _ v: Double) -> UInt32 {
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let ax = UInt32((u - fu) * 256), ay = UInt32((v - fv) * 256)
        let cx0 = max(0, min(t.width - 1, x0)), cx1 = max(0, min(t.width - 1, x0 + 1))
        let cy0 = max(0, min(t.height - 1, y0)), cy1 = max(0, min(t.height - 1, y0 + 1))
        let top = lerp(t[cx0, cy0], t[cx1, cy0], ax), bottom = lerp(t[cx0, cy1], t[cx1, cy1], ax)
        return lerp(top, bottom, ay)
    }

    @inline(__always) static func lerp(_ p: UInt32, _ q: UInt32, _ f: UInt32) -> UInt32 {
        let rbP = p & 0x00FF_00FF, agP = (p >> 8) & 0x00FF_00FF
        let rbQ = q & 0x00FF_00FF, agQ = (q >> 8) & 0x00FF_00FF
        let rb = ((rbP &* (256 - f) &+ rbQ &* f) >> 8) & 0x00FF_00FF
        let ag = ((agP &* (256 - f) &+ agQ &* f) >> 8) & 0x00FF_00FF
        return rb | (ag << 8)
    }

    @inline(__always) static func scale(_ p: UInt32, _ f: UInt32) -> UInt32 {
        if f >= 256 { return p }
        let rb = ((p & 0x00FF_00FF) &* f >> 8) & 0x00FF_00FF
        let ag = (((p >> 8) & 0x00FF_00FF) &* f >> 8) & 0x00FF_00FF
        return rb | (ag << 8)
    }

    /// Premultiplied source-over: `s + d·(1 − αs)`.
    @inline(__always) static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        if sa == 255 { return s }
        if sa == 0 && s == 0 { return d }
        let inv = 255 - sa
        let rb = (((d & 0x00FF_00FF) &* inv &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        let ag = ((((d >> 8) & 0x00FF_00FF) &* inv &+ 0x0080_0080) >> 8) & 0x00FF_00FF
        return s &+ (rb | (ag << 8))
    }
}
