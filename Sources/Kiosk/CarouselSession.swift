import CarouselCore
import Cards
import KioskConfig
import Raster

/// The carousel as people see it, independent of where time and pixels come from: gestures →
/// engine → layout → quads → frame. `Simulator` drives it with a virtual clock and
/// `KioskApp` with the real one, so both show exactly the same frames for the same inputs.
public final class CarouselSession {
    public private(set) var config: KioskConfiguration
    public let engine: CarouselEngine
    private let gestures: GestureRecognizer
    public private(set) var scene: SceneRenderer
    private var cards: [Texture] = []
    /// True when the state changed since the last frame was drawn.
    public private(set) var needsFrame = true

    public init(config: KioskConfiguration, width: Int, height: Int) {
        self.config = config
        engine = CarouselEngine(options: config.carousel, itemCount: config.items.count)
        gestures = GestureRecognizer(options: config.gestures, vertical: config.carousel.vertical)
        scene = SceneRenderer(width: width, height: height, config: config)
        renderCards()
    }

    /// The view size the scene is laid out in.
    public var size: (width: Int, height: Int) { (scene.width, scene.height) }

    /// True while the engine needs its fixed-rate tick.
    public var isMoving: Bool { engine.isMoving }

    /// Feeds one input event at `now`.
    public func handle(_ event: InputEvent, now: Double) {
        for intent in gestures.handle(event, now: now) { apply(intent, now: now) }
    }

    /// Feeds one intent (control commands, idle actions, the demo) at `now`.
    public func apply(_ intent: Intent, now: Double) {
        engine.apply(intent, now: now)
        needsFrame = true
    }

    /// Advances the engine to `now`; returns its events.
    public func tick(now: Double) -> [TimedCarouselEvent] {
        let before = engine.scrollOffset
        engine.tick(now: now)
        if engine.scrollOffset != before { needsFrame = true }
        return engine.takeEvents()
    }

    /// Events produced by `apply` since the last `tick` or `takeEvents`.
    public func takeEvents() -> [TimedCarouselEvent] { engine.takeEvents() }

    /// The quads of the visible items, back to front.
    public func quads() -> [Quad] {
        engine.layout(viewSize: Size2(Double(scene.width), Double(scene.height))).compactMap { pose in
            guard cards.indices.contains(pose.index) else { return nil }
            return Quad(texture: cards[pose.index], corners: pose.corners, alpha: pose.alpha)
        }
    }

    /// Draws the frame into `scene.frame`; returns the damaged rectangles.
    public func renderFrame(full: Bool = false) -> [PixelRect] {
        needsFrame = false
        return scene.render(quads(), full: full)
    }

    /// Lays the scene out for a new screen size (hotplug, new mode); the next frame is full.
    public func resize(width: Int, height: Int) {
        scene = SceneRenderer(width: width, height: height, config: config)
        needsFrame = true
    }

    /// Applies a new configuration without a restart, keeping the current item if it still exists.
    public func reload(_ new: KioskConfiguration, now: Double) {
        let currentID = config.items.indices.contains(engine.currentIndex) ? config.items[engine.currentIndex].id : nil
        let old = config
        config = new
        engine.update(options: new.carousel, itemCount: new.items.count, now: now)
        gestures.options = new.gestures
        gestures.vertical = new.carousel.vertical
        if old.theme != new.theme || old.display.renderThreads != new.display.renderThreads
            || old.display.buffers != new.display.buffers {
            scene = SceneRenderer(width: scene.width, height: scene.height, config: new)
        }
        if old.items != new.items || old.carousel.itemSize != new.carousel.itemSize { renderCards() }
        if let id = currentID, let i = new.items.firstIndex(where: { $0.id == id }), i != engine.currentIndex {
            engine.apply(.scrollTo(index: i, duration: 0), now: now)
        }
        needsFrame = true
    }

    private func renderCards() {
        let renderer = PlainCardRenderer()
        let w = max(1, Int(config.carousel.itemSize.width)), h = max(1, Int(config.carousel.itemSize.height))
        cards = config.items.map { renderer.render($0, width: w, height: h) }
        cards.forEach { $0.buildMipLevels() }
    }
}
