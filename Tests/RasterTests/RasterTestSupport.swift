import CarouselCore
import Foundation
@testable import Raster

/// Helpers shared by the Raster tests.
enum RT {
    static let black: UInt32 = 0xFF00_0000
    static let background: UInt32 = 0xFF10_2030

    static func canvas(_ w: Int, _ h: Int, _ value: UInt32 = background) -> Canvas {
        let c = Canvas(width: w, height: h)
        c.fill(value)
        return c
    }

    static func solid(_ w: Int, _ h: Int, _ value: UInt32) -> Texture {
        Texture(width: w, height: h) { _, _ in value }
    }

    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point2] {
        [Point2(x0, y0), Point2(x1, y0), Point2(x1, y1), Point2(x0, y1)]
    }

    static func channel(_ p: UInt32, _ shift: UInt32) -> Int { Int((p >> shift) & 0xFF) }

    /// The largest per-channel (R, G, B) difference.
    static func diff(_ a: UInt32, _ b: UInt32) -> Int {
        [16, 8, 0].map { abs(channel(a, $0) - channel(b, $0)) }.max()!
    }

    /// `ref_render` (../shared/bench/peers/src/ref_render.c) in the test: exact inverse
    /// homography at each pixel centre in Double, bilinear with transparent texels outside the
    /// texture, float source-over with the quad alpha, one rounding at the end.
    static func reference(_ quads: [Quad], width: Int, height: Int, background: UInt32) -> Canvas {
        var acc = [Double](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            acc[3 * i] = Double(channel(background, 16))
            acc[3 * i + 1] = Double(channel(background, 8))
            acc[3 * i + 2] = Double(channel(background, 0))
        }
        for q in quads {
            let t = q.texture
            guard let h = Homography.rectToQuad(width: Double(t.width), height: Double(t.height), q.corners),
                  var hi = h.inverse?.m else { continue }
            let cx = q.corners.map(\.x).reduce(0, +) / 4, cy = q.corners.map(\.y).reduce(0, +) / 4
            if hi.6 * cx + hi.7 * cy + hi.8 < 0 {
                hi = (-hi.0, -hi.1, -hi.2, -hi.3, -hi.4, -hi.5, -hi.6, -hi.7, -hi.8)
            }
            func texel(_ i: Int, _ j: Int) -> [Double] {
                guard i >= 0, j >= 0, i < t.width, j < t.height else { return [0, 0, 0, 0] }
                let p = t[i, j]
                return [24, 16, 8, 0].map { Double(channel(p, UInt32($0))) }
            }
            for y in 0..<height {
                for x in 0..<width {
                    let px = Double(x) + 0.5, py = Double(y) + 0.5
                    let w = hi.6 * px + hi.7 * py + hi.8
                    if w <= 0 { continue }
                    let u = (hi.0 * px + hi.1 * py + hi.2) / w - 0.5, v = (hi.3 * px + hi.4 * py + hi.5) / w - 0.5
                    if u < -1 || v < -1 || u > Double(t.width) || v > Double(t.height) { continue }
                    let iu = Int(u.rounded(.down)), iv = Int(v.rounded(.down))
                    let fu = u - Double(iu), fv = v - Double(iv)
                    let a = texel(iu, iv), b = texel(iu + 1, iv), c = texel(iu, iv + 1), d = texel(iu + 1, iv + 1)
                    var s = [Double](repeating: 0, count: 4)
                    for k in 0..<4 {
                        s[k] = ((a[k] * (1 - fu) + b[k] * fu) * (1 - fv) + (c[k] * (1 - fu) + d[k] * fu) * fv) * q.alpha
                    }
                    let keep = 1 - s[0] / 255
                    let o = 3 * (y * width + x)
                    for k in 0..<3 { acc[o + k] = s[k + 1] + acc[o + k] * keep }
                }
            }
        }
        let out = Canvas(width: width, height: height)
        for i in 0..<(width * height) {
            let c = (0..<3).map { UInt32(max(0, min(255, (acc[3 * i + $0] + 0.5).rounded(.down)))) }
            out.pixels[i] = 0xFF00_0000 | c[0] << 16 | c[1] << 8 | c[2]
        }
        return out
    }
}
