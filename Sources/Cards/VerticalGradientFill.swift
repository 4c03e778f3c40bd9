import KioskConfig
import Raster

/// A card's background written straight into a texture: a vertical gradient is one colour a
/// row, so each row is a fill of one premultiplied word. cairo drew it as a linear gradient
/// under the card's rounded clip, evaluating the gradient at every pixel (7.4 M instructions
/// for the two loading faces of the example's first frame, docs/start-up.md); the rounded
/// corners are cut afterwards in the four corner squares only (`LoadingFaceFill.cutCorners`).
enum VerticalGradientFill {
    /// Fills every pixel of `texture`: `top` at the top row's centre blending to `bottom` at the
    /// bottom row's (as cairo's linear gradient from y = 0 to the height, sampled at pixel
    /// centres), both with their alpha times `alpha`; `top` alone when `bottom` is nil.
    static func fill(_ texture: Texture, top: ARGBColor, bottom: ARGBColor?, alpha: Double = 1) {
        let width = texture.width, height = texture.height
        let end = bottom ?? top
        for y in 0..<height {
            let t = (Double(y) + 0.5) / Double(height)
            let word = premultiplied(top, end, t: t, alpha: alpha)
            (texture.pixels + y * width).update(repeating: word, count: width)
        }
    }

    /// `a` blended to `b` by `t` (0…1), channels unpremultiplied as the colour stops are, then
    /// premultiplied and rounded to 8 bits.
    static func premultiplied(_ a: ARGBColor, _ b: ARGBColor, t: Double, alpha: Double) -> UInt32 {
        func channel(_ c: ARGBColor, _ shift: UInt32) -> Double { Double((c >> shift) & 0xFF) / 255 }
        func mix(_ shift: UInt32) -> Double { channel(a, shift) + (channel(b, shift) - channel(a, shift)) * t }
        let alphaValue = max(0, min(1, mix(24) * alpha))
        func byte(_ v: Double) -> UInt32 { UInt32((max(0, min(1, v)) * 255).rounded()) }
        return byte(alphaValue) << 24 | byte(mix(16) * alphaValue) << 16 | byte(mix(8) * alphaValue) << 8 | byte(mix(0) * alphaValue)
    }
}
