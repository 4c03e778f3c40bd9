import CarouselCore

/// Draws frames into cached memory and says what changed.
///
/// Each `render` restores the background and redraws the quads only inside this frame's damage:
/// the bounds of every quad that changed (texture or its generation, corners, alpha or place in
/// the list), both where it is now and where it was in the previous frame. An unchanged list of
/// quads gives no damage at all. What each display buffer is missing (the union of the damage of
/// every frame since that buffer was last written) is not tracked here but by whoever owns the
/// buffers, with `BufferDamage` (Display): rendering never reads the display memory, which is
/// often write-combined and very slow to read.
public final class FrameComposer {
    /// The latest frame, in cached memory.
    public let frame: Canvas
    /// What lies under the cards: an image the size of `frame`, or a colour per row.
    public let background: Backdrop
    public let compositor: Compositor
    /// Frames rendered so far.
    public private(set) var frameNumber = 0
    /// The damage of the latest frame relative to the one before.
    public private(set) var lastDamage = DamageRegion()

    private var previous: [QuadKey] = []
    /// The solid colour the previous frame was drawn over instead of `background`, if any.
    private var previousColor: UInt32?

    /// - Parameter background: copied, so later changes to it need `render(_:full:)` with `full: true`.
    public init(background: Canvas, compositor: Compositor) {
        frame = Canvas(width: background.width, height: background.height)
        let copy = Canvas(width: background.width, height: background.height)
        copy.copy(from: background, x: 0, y: 0, width: background.width, height: background.height)
        frame.copy(from: background, x: 0, y: 0, width: background.width, height: background.height)
        self.background = .image(copy)
        self.compositor = compositor
    }

    /// Frames of `width` × `height` over `backdrop` (a `.rows` backdrop needs a colour for each
    /// row). Nothing is drawn until the first `render`, which draws the whole frame: until then
    /// `frame` is black. No memory beyond the frame's own is filled or copied — the kiosk's
    /// first frame comes that much sooner (docs/start-up.md).
    public init(width: Int, height: Int, backdrop: Backdrop, compositor: Compositor) {
        frame = Canvas(width: width, height: height)
        background = backdrop
        self.compositor = compositor
    }

    /// Draws `quads` (back to front) into `frame` and returns the rectangles that changed since
    /// the previous frame (everything on the first frame or when `full`). `color`, when given,
    /// replaces the background by that opaque colour (a full-screen clip's black bars); a change
    /// between the background and a colour damages the whole frame.
    @discardableResult
    public func render(_ quads: [Quad], full: Bool = false, over color: UInt32? = nil) -> [PixelRect] {
        let keys = quads.map(QuadKey.init)
        var damage = DamageRegion()
        if full || frameNumber == 0 || color != previousColor {
            damage.add(frame.bounds)
        } else {
            for i in 0..<max(keys.count, previous.count) {
                let now = i < keys.count ? keys[i] : nil, before = i < previous.count ? previous[i] : nil
                if now == before { continue }
                if let now { damage.add(now.bounds) }
                if let before { damage.add(before.bounds) }
            }
        }
        damage = damage.clipped(to: frame.bounds)
        previous = keys
        previousColor = color
        frameNumber += 1
        lastDamage = damage
        // The background is restored and the quads drawn over it in one pass per rectangle.
        let backdrop: Backdrop = color.map { .color($0) } ?? background
        for r in damage.rects { compositor.draw(quads, into: frame, clip: r, backdrop: backdrop) }
        return damage.rects
    }
}

/// What decides a quad's pixels, for change detection.
struct QuadKey: Equatable {
    var texture: ObjectIdentifier
    /// A pooled texture rewritten in place is another picture under the same identity.
    var generation: Int
    var corners: [Point2]
    var alpha: Double
    var cullsBackFace: Bool
    var bounds: PixelRect

    init(_ q: Quad) {
        texture = ObjectIdentifier(q.texture)
        generation = q.texture.generation
        corners = q.corners
        alpha = q.alpha
        cullsBackFace = q.cullsBackFace
        bounds = q.bounds
    }
}
