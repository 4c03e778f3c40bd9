import CarouselCore
import Cards
import KioskConfig
import Raster

/// Turns item poses into a frame: the themed background, then each visible card's texture
/// through its quad, back to front. Keeps one cached-memory frame and reports what changed.
public final class SceneRenderer {
    public let width: Int
    public let height: Int
    /// The frame drawn last (cached memory; the display copies damaged parts out of it).
    public let frame: Canvas
    private let background: Canvas
    private var compositor: Compositor
    private var previousBounds: [PixelRect] = []
    private var hasRendered = false

    public init(width: Int, height: Int, theme: Theme, filter: TextureFilter = .mipmap) {
        self.width = width
        self.height = height
        frame = Canvas(width: width, height: height)
        background = Canvas(width: width, height: height)
        compositor = Compositor(filter: filter)
        SceneRenderer.paintBackground(background, theme: theme)
        frame.copy(from: background, x: 0, y: 0, width: width, height: height)
    }

    /// Draws `quads` and returns the damaged rectangles (the union of this frame's and the
    /// previous frame's quad bounds; the whole frame on the first call).
    @discardableResult
    public func render(_ quads: [Quad], full: Bool = false) -> [PixelRect] {
        let bounds = quads.map { $0.bounds.intersection(frame.bounds) }.filter { !$0.isEmpty }
        var damage = (bounds + previousBounds).reduce(PixelRect.empty) { $0.union($1) }
        if full || !hasRendered { damage = frame.bounds }
        previousBounds = bounds
        hasRendered = true
        guard !damage.isEmpty else { return [] }
        frame.copy(from: background, x: damage.x, y: damage.y, width: damage.width, height: damage.height)
        compositor.draw(quads, into: frame, clip: damage)
        return [damage]
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
