import CarouselCore
import Cards
import KioskConfig
import Raster

/// Turns item poses into a frame: the themed background, then each visible card's texture
/// through its quad, back to front. Each frame's damage comes from Raster's `FrameComposer`
/// (what each display buffer lacks is the display's business); this type adds the theme.
public final class SceneRenderer {
    public let width: Int
    public let height: Int
    /// Draws into cached memory and says what changed since the previous frame.
    public let composer: FrameComposer
    /// The frame drawn last (cached memory; the display copies damaged parts out of it).
    public var frame: Canvas { composer.frame }

    /// - Parameters:
    ///   - threads: horizontal bands drawn in parallel (`[display] render_threads`).
    public init(width: Int, height: Int, theme: Theme, filter: TextureFilter = .mipmap, threads: Int = 1) {
        self.width = width
        self.height = height
        composer = FrameComposer(width: width, height: height, backdrop: .rows(SceneRenderer.backgroundRows(height: height, theme: theme)),
                                 compositor: Compositor(filter: filter, threads: threads))
    }

    /// A renderer for `config`: its theme, `[display] render_threads` (default: the number of
    /// cores, at most 4).
    public convenience init(width: Int, height: Int, config: KioskConfiguration) {
        self.init(width: width, height: height, theme: config.theme,
                  threads: config.display.renderThreads ?? Compositor.defaultThreadCount)
    }

    /// Draws `quads` and returns the rectangles that changed since the previous frame (the
    /// bounds of changed quads, old and new; nothing when nothing moved; the whole frame on the
    /// first call or when `full`). `color` replaces the themed background by an opaque colour.
    @discardableResult
    public func render(_ quads: [Quad], full: Bool = false, over color: UInt32? = nil) -> [PixelRect] {
        composer.render(quads, full: full, over: color)
    }

    /// The themed background, one colour a row: `background` at the top, `background_bottom`
    /// (or the same colour) at the bottom, each channel interpolated and rounded. A backdrop of
    /// rows, not an image: nothing the size of the screen to fill, copy and read at every frame.
    static func backgroundRows(height: Int, theme: Theme) -> [UInt32] {
        let top = theme.background, bottom = theme.backgroundBottom ?? theme.background
        return (0..<max(height, 0)).map { y in
            let t = height > 1 ? Double(y) / Double(height - 1) : 0
            var v: UInt32 = 0xFF00_0000
            for shift in stride(from: 0 as UInt32, through: 16, by: 8) {
                let a = Double((top >> shift) & 0xFF), b = Double((bottom >> shift) & 0xFF)
                v |= UInt32((a + (b - a) * t).rounded()) << shift
            }
            return v
        }
    }
}
