import CarouselCore

/// Draws frames into cached memory and tracks what each display buffer is missing.
///
/// Each `render` restores the background and redraws the quads only inside this frame's damage:
/// the bounds of every quad that changed (texture, corners, alpha or place in the list), both
/// where it is now and where it was in the previous frame. An unchanged list of quads gives
/// no damage at all. Display buffers (2 for double, 3 for triple buffering) are brought up to
/// date by `copyDamage(into:bufferIndex:)`, which copies the union of the damage of every
/// frame since that buffer last received one: rendering never reads the display memory,
/// which is often write-combined and very slow to read.
public final class FrameComposer {
    /// The latest frame, in cached memory.
    public let frame: Canvas
    /// What lies under the cards (same size as `frame`).
    public let background: Canvas
    public let compositor: Compositor
    /// Frames rendered so far.
    public private(set) var frameNumber = 0
    /// The damage of the latest frame relative to the one before.
    public private(set) var lastDamage = DamageRegion()

    private var previous: [QuadKey] = []
    /// Damage of recent frames, newest last; `history[i]` turned frame `firstHistoryFrame + i − 1`
    /// into frame `firstHistoryFrame + i`.
    private var history: [DamageRegion] = []
    private var firstHistoryFrame = 1
    private let historyLimit: Int
    /// For each display buffer, the frame number it holds (0 = nothing known).
    private var bufferFrames: [Int]

    /// - Parameters:
    ///   - background: copied, so later changes to it need `render(_:full:)` with `full: true`.
    ///   - bufferCount: display buffers to track (2–3 usually).
    public init(background: Canvas, compositor: Compositor, bufferCount: Int = 3) {
        frame = Canvas(width: background.width, height: background.height)
        self.background = Canvas(width: background.width, height: background.height)
        self.background.copy(from: background, x: 0, y: 0, width: background.width, height: background.height)
        frame.copy(from: background, x: 0, y: 0, width: background.width, height: background.height)
        self.compositor = compositor
        historyLimit = max(2, bufferCount + 1)
        bufferFrames = Array(repeating: 0, count: max(1, bufferCount))
    }

    /// Draws `quads` (back to front) into `frame` and returns the rectangles that changed since
    /// the previous frame (everything on the first frame or when `full`).
    @discardableResult
    public func render(_ quads: [Quad], full: Bool = false) -> [PixelRect] {
        let keys = quads.map(QuadKey.init)
        var damage = DamageRegion()
        if full || frameNumber == 0 {
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
        frameNumber += 1
        lastDamage = damage
        history.append(damage)
        if history.count > historyLimit { history.removeFirst(); firstHistoryFrame += 1 }
        // The background is restored and the quads drawn over it in one pass per rectangle.
        for r in damage.rects { compositor.draw(quads, into: frame, clip: r, backdrop: .image(background)) }
        return damage.rects
    }

    /// What display buffer `index` must receive to show the latest frame: the union of the
    /// damage since the frame it holds, or the whole frame when it holds nothing known.
    public func damage(forBuffer index: Int) -> DamageRegion {
        let held = bufferFrames.indices.contains(index) ? bufferFrames[index] : 0
        if held == frameNumber { return DamageRegion() }
        guard held > 0, held + 1 >= firstHistoryFrame else { return DamageRegion([frame.bounds]) }
        var region = DamageRegion()
        for f in (held + 1)...frameNumber { region.formUnion(history[f - firstHistoryFrame]) }
        return region
    }

    /// Copies what display buffer `index` is missing from `frame` into `buffer`, and records
    /// that it now holds the latest frame. Returns the number of pixels copied.
    @discardableResult
    public func copyDamage(into buffer: Canvas, bufferIndex index: Int) -> Int {
        let region = damage(forBuffer: index)
        for r in region.rects { buffer.copy(from: frame, x: r.x, y: r.y, width: r.width, height: r.height) }
        if bufferFrames.indices.contains(index) { bufferFrames[index] = frameNumber }
        return region.area
    }

    /// Forgets what the display buffers hold (after a mode change or getting the screen back):
    /// the next copies are whole frames.
    public func invalidateBuffers() {
        for i in bufferFrames.indices { bufferFrames[i] = 0 }
    }
}

/// What decides a quad's pixels, for change detection.
struct QuadKey: Equatable {
    var texture: ObjectIdentifier
    var corners: [Point2]
    var alpha: Double
    var cullsBackFace: Bool
    var bounds: PixelRect

    init(_ q: Quad) {
        texture = ObjectIdentifier(q.texture)
        corners = q.corners
        alpha = q.alpha
        cullsBackFace = q.cullsBackFace
        bounds = q.bounds
    }
}
