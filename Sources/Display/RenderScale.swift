/// `[display] render_scale`: the scene is laid out and drawn at a fraction of the screen's size
/// and the scan-out copy enlarges it (`ScanoutCopier`), so a 4K panel costs a quarter of the
/// drawing at ½.
///
/// Sizes round to whole pixels: a `W × H` screen at scale `s` draws `round(W·s) × round(H·s)`
/// (at least 1×1). The scale of each axis is then the ratio of the rounded sizes.
public enum RenderScale {
    /// The smallest and largest scale.
    public static let range: ClosedRange<Double> = 0.5...1.0

    /// `scale` limited to `range` (NaN: 1).
    public static func clamp(_ scale: Double) -> Double {
        scale.isNaN ? 1 : min(max(scale, range.lowerBound), range.upperBound)
    }

    /// The size the scene is drawn at for a screen of `width × height` (already rotated).
    public static func sceneSize(width: Int, height: Int, scale: Double) -> (width: Int, height: Int) {
        let s = clamp(scale)
        guard s < 1, width > 0, height > 0 else { return (width, height) }
        return (max(1, Int((Double(width) * s).rounded())), max(1, Int((Double(height) * s).rounded())))
    }
}

/// How the scan-out copy enlarges a frame drawn at a render scale below 1.
public enum ScaleFilter: String, CaseIterable, Sendable {
    /// Each screen pixel blends the 2×2 scene pixels around its centre (8-bit weights): any scale.
    case bilinear
    /// Each scene pixel becomes 2×2 screen pixels, unchanged: exactly ½ only (an axis of the
    /// screen `2n` or `2n − 1` pixels for `n` scene pixels); other scales use `bilinear`.
    case pixelDoubling = "double"

    /// The filter the displays use by default: exact doubling where the scale allows it (it is
    /// cheaper and keeps the scene's own anti-aliasing; docs/display.md "4K" has the figures).
    public static let preferred = ScaleFilter.pixelDoubling

    /// True when `scene` pixels can be doubled into `screen` pixels on one axis.
    static func doubles(scene: Int, screen: Int) -> Bool { screen == 2 * scene || screen == 2 * scene - 1 }
}
