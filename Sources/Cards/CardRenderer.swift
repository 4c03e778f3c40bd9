import KioskConfig
import Raster

/// Draws an item's face into a texture of the size it is shown at.
public protocol CardRenderer: Sendable {
    /// Renders `item`'s face at `width × height` pixels (premultiplied ARGB).
    func render(_ item: ItemConfig, width: Int, height: Int) -> Texture
}

/// A card face drawn without any library: the style's background (flat or gradient) with
/// rounded corners and a border, for tools and tests that want a face without cairo. The kiosk
/// draws with `CardFaceRenderer` through `CardPipeline`.
public struct PlainCardRenderer: CardRenderer {
    public init() {}

    public func render(_ item: ItemConfig, width: Int, height: Int) -> Texture {
        let s = item.style
        let top = s.background, bottom = s.backgroundBottom ?? s.background
        let r = max(0, min(s.cornerRadius, Double(min(width, height)) / 2))
        return Texture(width: width, height: height) { x, y in
            let t = height > 1 ? Double(y) / Double(height - 1) : 0
            var c = PlainCardRenderer.mix(top, bottom, t)
            if s.borderWidth > 0 {
                let d = Double(min(min(x, width - 1 - x), min(y, height - 1 - y)))
                if d < s.borderWidth { c = s.borderColor }
            }
            let cover = PlainCardRenderer.cornerCoverage(x: Double(x) + 0.5, y: Double(y) + 0.5,
                                                         w: Double(width), h: Double(height), r: r)
            return PlainCardRenderer.premultiply(c, coverage: cover)
        }
    }

    /// Linear mix of two straight ARGB colours.
    static func mix(_ a: UInt32, _ b: UInt32, _ t: Double) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let ca = Double((a >> shift) & 0xFF), cb = Double((b >> shift) & 0xFF)
            out |= UInt32((ca + (cb - ca) * t).rounded()) << shift
        }
        return out
    }

    /// Straight ARGB → premultiplied, with extra coverage (0…1) folded into alpha.
    static func premultiply(_ c: UInt32, coverage: Double) -> UInt32 {
        let a = Double(c >> 24) / 255 * coverage
        let r = Double((c >> 16) & 0xFF) * a, g = Double((c >> 8) & 0xFF) * a, b = Double(c & 0xFF) * a
        return UInt32((a * 255).rounded()) << 24 | UInt32(r.rounded()) << 16 | UInt32(g.rounded()) << 8 | UInt32(b.rounded())
    }

    /// How much of the pixel centred at (x, y) lies inside a rounded rectangle (1-pixel ramp).
    static func cornerCoverage(x: Double, y: Double, w: Double, h: Double, r: Double) -> Double {
        guard r > 0 else { return 1 }
        let cx = x < r ? r : (x > w - r ? w - r : x)
        let cy = y < r ? r : (y > h - r ? h - r : y)
        let dx = x - cx, dy = y - cy
        let d = (dx * dx + dy * dy).squareRoot()
        return max(0, min(1, r - d + 0.5))
    }
}
