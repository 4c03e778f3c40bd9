import CarouselCore
import Cards
import KioskConfig
import Raster

/// Turns item poses into a frame: the themed background, then each visible card's texture
/// through its quad, back to front. Damage tracking (per frame and per display buffer) lives in
/// Raster's `FrameComposer`; this type adds the theme.
public final class SceneRenderer {
    public let width: Int
    public let height: Int
    /// Draws into cached memory and knows what each display buffer is missing.
    public let composer: FrameComposer
    /// The frame drawn last (cached memory; the display copies damaged parts out of it).
    public var frame: Canvas { composer.frame }

    /// - Parameters:
    ///   - threads: horizontal bands drawn in parallel (`[display] render_threads`).
    ///   - bufferCount: display buffers whose contents `composer` tracks.
    public init(width: Int, height: Int, theme: Theme, filter: TextureFilter = .mipmap, threads: Int = 1,
                bufferCount: Int = 3) {
        self.width = width
        self.height = height
        let background = Canvas(width: width, height: height)
        SceneRenderer.paintBackground(background, theme: theme)
        composer = FrameComposer(background: background, compositor: Compositor(filter: filter, threads: threads),
                                 bufferCount: bufferCount)
    }

    /// A renderer for `config`: its theme, `[display] render_threads` (default: the number of
    /// cores, at most 4) and `[display] buffers`.
    public convenience init(width: Int, height: Int, config: KioskConfiguration) {
        self.init(width: width, height: height, theme: config.theme,
                  threads: config.display.renderThreads ?? Compositor.defaultThreadCount,
                  bufferCount: config.display.buffers)
    }

    /// Draws `quads` and returns the rectangles that changed since the previous frame (the
    /// bounds of changed quads, old and new; nothing when nothing moved; the whole frame on the
    /// first call or when `full`).
    @discardableResult
    public func render(_ quads: [Quad], full: Bool = false) -> [PixelRect] {
        composer.render(quads, full: full)
    }

    static func paintBackground(_ c: Canvas, theme: Theme) {
        let top = theme.background, bottom = theme.backgroundBottom ?? theme.background
        for y in 0..<c.height {
            let t = c.height > 1 ? Double(y) / Double(c.height - 1) : 0
            var v: UInt32 = 0xFF00_0000
            for shift in stride(from: 0 as UInt32, through: 16, by: 8) {
                let a = Double((top >> shift) & 0xFF), b = Double((bottom >> shift) & 0xFF)
                v |= UInt32((a + (b - a) * t).rounded()) << shift
            }
            c.fill(v, x: 0, y: y, width: c.width, height: 1)
        }
    }
}
