import CarouselCore
import Cards
import Display
import KioskConfig
import Raster

/// The carousel as people see it, independent of where time and pixels come from: gestures →
/// engine → layout → quads → frame. `Simulator` drives it with a virtual clock and
/// `KioskApp` with the real one, so both show exactly the same frames for the same inputs.
///
/// Callers see what they need — input and intents in, the frame and the position out — not the
/// engine, renderer and card pipeline behind it (those stay internal, for this module's tests).
public final class CarouselSession {
    /// Where the carousel is: for the control socket's `state` and the idle stages.
    public struct Position: Equatable, Sendable {
        /// The item nearest the focus.
        public var index: Int
        /// The scroll offset in item units.
        public var offset: Double
        /// How many items there are.
        public var itemCount: Int
        /// Whether the ring wraps round.
        public var wraps: Bool
    }

    /// The configuration shown (items, theme, idle policy, …); `reload` replaces it.
    public private(set) var config: KioskConfiguration
    /// Large text and high contrast (`[accessibility]`, toggled by keys: `setLook`): applied to
    /// `config`'s theme and card styles for everything drawn, never to `config` itself.
    public private(set) var look: AccessibleLook
    /// `config` in `look` (made once per reload or look change, not per frame; `config` itself
    /// when the look is plain).
    private var styled: KioskConfiguration
    let engine: CarouselEngine
    private let gestures: GestureRecognizer
    private(set) var scene: SceneRenderer
    /// The card faces. Synchronous (every visible face drawn before the frame, no fades) unless
    /// the session was made with `synchronousCards: false`; then the loop adds `cardEventFD`
    /// to its epoll and calls `drainCards(now:)` when it is readable.
    let cards: CardPipeline
    private var overlays: OverlayRenderer
    /// The time frames are drawn at (for card fades); `renderFrame(now:)` sets it.
    private var frameTime = 0.0
    /// True when the state changed since the last frame was drawn.
    public internal(set) var needsFrame = true
    /// The next `renderFrame` reports the whole frame as damage (`requestFullFrame()`).
    private var fullFrameRequested = false
    /// The message cards drawn instead of the carousel (`SceneCards`: the problem card, a
    /// notice, the empty face); its owner gives it. Nil: the carousel always.
    weak var covering: (any SceneCovering)?
    /// The clips (`SceneVideo`: the centred card's and a full-screen one); its owner gives it.
    /// Nil: the cards show their posters.
    weak var video: (any ScenePlayback)?
    /// Burn-in care (`[display] pixel_shift`, `PixelShiftState`): moves the scene over time; its
    /// owner gives it. Nil: the scene is drawn where it is laid out.
    weak var shift: (any SceneShifting)?
    /// `[display] render_scale`: the frame is `size` = the screen size times this (rounded), the
    /// display enlarges it. The engine lays out in screen pixels (`screenSize`) and input arrives
    /// in them; card corners are multiplied by the scale when drawn, and cards and overlays are
    /// rasterized for the scaled size (`RenderScaleStyles`).
    public private(set) var renderScale: Double = 1
    /// The size the layout and input use: the screen's (after rotation, before `renderScale`).
    public private(set) var screenSize: (width: Int, height: Int)

    /// - Parameter renderScale: the scene is drawn at `width × height` times this (0.5…1).
    public init(config: KioskConfiguration, width: Int, height: Int, renderScale: Double = 1,
                synchronousCards: Bool = true) {
        self.config = config
        look = AccessibleLook(config.accessibility)
        screenSize = (width, height)
        let drawn = Self.drawnSize(width: width, height: height, scale: renderScale)
        self.renderScale = drawn.scale
        let styled = look.apply(to: config)
        self.styled = styled
        engine = CarouselEngine(options: styled.carousel, itemCount: config.items.count,
                                viewSize: Size2(Double(width), Double(height)))
        gestures = GestureRecognizer(options: config.gestures, vertical: config.carousel.vertical)
        scene = SceneRenderer(width: drawn.width, height: drawn.height, config: styled)
        let size = CarouselSession.cardSize(config, scale: drawn.scale)
        cards = CardPipeline(items: styled.items.map { $0.scaled(by: drawn.scale) }, cardWidth: size.width, cardHeight: size.height,
                             options: CardPipeline.Options(settings: config.cards, wraps: engine.wraps,
                                                           synchronous: synchronousCards))
        overlays = OverlayRenderer(style: OverlayStyle(theme: styled.theme.scaled(by: drawn.scale)),
                                   screenWidth: drawn.width, screenHeight: drawn.height)
    }

    /// True while a finger (or the pointer's button) is down on the carousel: a drag is going on.
    public var isTracking: Bool { gestures.isTracking }

    /// The size the scene is drawn at (`screenSize` times `renderScale`): the frame's.
    public var size: (width: Int, height: Int) { (scene.width, scene.height) }

    /// The frame size for a screen of `width × height` at `scale` (`RenderScale.sceneSize`, the
    /// display's own drawn size), and the scale the quads are multiplied by (1 when the size is
    /// the screen's).
    static func drawnSize(width: Int, height: Int, scale: Double) -> (width: Int, height: Int, scale: Double) {
        let s = RenderScale.clamp(scale)
        guard s < 1, width > 0, height > 0 else { return (width, height, 1) }
        let drawn = RenderScale.sceneSize(width: width, height: height, scale: s)
        return (drawn.width, drawn.height, s)
    }

    /// The frame drawn last (cached memory; the display copies the damaged parts out of it).
    public var frame: Canvas { scene.frame }

    /// Readable when card workers finished faces (asynchronous cards): watch it and call
    /// `drainCards(now:)`.
    public var cardEventFD: Int32 { cards.eventFD }
    /// Bytes the card face cache holds.
    public var cardCacheBytes: Int { cards.cacheBytes }
    /// Cards that could not show their file since the start (once per file and reason).
    public var cardFailures: Int { cards.failuresReported }
    /// Card faces drawn by the workers since the start (0 with synchronous cards).
    public var cardFacesDrawn: Int { cards.facesDrawn }

    /// Where the carousel is now.
    public var position: Position {
        Position(index: engine.currentIndex, offset: engine.scrollOffset, itemCount: engine.itemCount, wraps: engine.wraps)
    }

    /// The autoscroll speed in items per second now (the configured one, or attract mode's).
    public var autoscroll: Double { engine.options.autoscroll }

    /// Sets the autoscroll speed (attract mode, and back to the configured one after it).
    public func setAutoscroll(_ speed: Double, now: Double) {
        var options = engine.options
        guard options.autoscroll != speed else { return }
        options.autoscroll = speed
        engine.update(options: options, itemCount: engine.itemCount, now: now)
        needsFrame = true
    }

    /// True while the scene changes by itself: the engine moves, a card is fading in, or a clip
    /// plays (or is about to start on the centred card). A driver on a fixed step (`simulate`,
    /// `display-test`) steps while it is true.
    public var isMoving: Bool {
        needsTick || video?.wantsTicks == true
    }

    /// True while the engine needs its fixed-rate tick or a card is fading in: what the kiosk's
    /// tick timer is armed for. A clip wakes the kiosk's loop itself (`VideoFrames`): it does not
    /// keep the tick running.
    public var needsTick: Bool {
        engine.isMoving || cards.isAnimating(now: frameTime)
    }

    /// Takes the card faces the workers finished (call when `cardEventFD` is readable);
    /// a new frame is needed when any of them changed.
    public func drainCards(now: Double) {
        if !cards.drainCompleted(now: now).isEmpty { needsFrame = true }
    }

    /// Shows the first frame's title and badge drawn on another thread (`FirstFrameAhead`)
    /// instead of drawing them: left out of the frames while they are still being drawn, shown
    /// once they are (call `textDrawnAheadArrived()` when its `eventFD` is readable). One drawn
    /// for another style or screen size is not used. The session lets go of the box with the
    /// first frame built once it was finished.
    public func showTextDrawnAhead(_ text: OverlaysDrawnAhead) {
        overlays.drawnAhead = text
    }

    /// A title or badge drawn ahead has come (or the thread drawing them is done): the next
    /// frame shows it.
    public func textDrawnAheadArrived() {
        if overlays.leftOutForDrawnAhead { needsFrame = true }
    }

    /// True when the last frame left out a title or badge still being drawn on another thread.
    public var textLeftOutForDrawnAhead: Bool { overlays.leftOutForDrawnAhead }

    /// Feeds one input event at `now`.
    public func handle(_ event: InputEvent, now: Double) {
        if covering?.swallows(event) == true { return }
        if video?.takes(event, now: now) == true { return }
        // The scene is drawn moved by the pixel shift: a touch lands on what is drawn under it.
        let laidOut = shift?.unshifted(event, renderScale: renderScale) ?? event
        for intent in gestures.handle(laidOut, now: now) { apply(intent, now: now) }
    }

    /// Feeds one intent (control commands, idle actions, the demo) at `now`. While a clip plays
    /// full screen, intents wait for it to end, except those that end it (`select`, `cancel`,
    /// `home`).
    public func apply(_ intent: Intent, now: Double) {
        if video?.holds(intent, now: now) == true { return }
        engine.apply(intent, now: now)
        needsFrame = true
        // Anything that moves the carousel stops the centred card's clip at once.
        if engine.isMoving { video?.carouselMoved(now: now) }
    }

    /// Advances the engine to `now`; returns its events.
    public func tick(now: Double) -> [TimedCarouselEvent] {
        let before = engine.scrollOffset
        // A moving engine can change the picture without moving the offset (coverflow2's
        // toggle, insert/remove slides), so a frame is due on every tick that moves.
        let moving = engine.isMoving
        // A card fading in needs frames at new times until its fade is over (the fade is
        // judged at the time of the last frame, so without a frame it would never end).
        let fading = cards.isAnimating(now: frameTime)
        engine.tick(now: now)
        if moving || fading || engine.scrollOffset != before { needsFrame = true }
        shift?.update(now: now)
        video?.update(now: now)
        return engine.takeEvents()
    }

    /// Events produced by `apply` since the last `tick` or `takeEvents`.
    public func takeEvents() -> [TimedCarouselEvent] { engine.takeEvents() }

    /// The quads of the visible items, back to front, then the page indicator and the focused
    /// item's title. Asks the card pipeline for the visible faces (drawn here when synchronous).
    public func quads() -> [Quad] {
        if let clip = video?.fullscreenQuads() { return clip }
        let quads = sceneQuads()
        return shift?.shifted(quads) ?? quads
    }

    /// The scene's quads where the layout puts them (before the pixel shift).
    private func sceneQuads() -> [Quad] {
        let theme = styled.theme
        if let shown = covering?.shownMessage {
            return [overlays.message(shown, style: MessageCardRenderer.Style(theme: theme)).quad]
        }
        let poses = engine.layout()
            .filter { $0.isPlaceholder || config.items.indices.contains($0.index) }
        cards.request(visible: poses.filter { !$0.isPlaceholder }.map(\.index), focus: engine.scrollOffset)
        let s = renderScale
        let placeholderStyle = theme.card.scaled(by: s)
        var quads = poses.flatMap { pose -> [Quad] in
            // The layout is in screen pixels; the frame is drawn at the render scale.
            let corners = s == 1 ? pose.corners : pose.corners.map { Point2($0.x * s, $0.y * s) }
            if pose.isPlaceholder {
                return [Quad(texture: cards.placeholderFace(style: placeholderStyle), corners: corners, alpha: pose.alpha)]
            }
            if let frame = video?.face(at: pose.index) { return [Quad(texture: frame, corners: corners, alpha: pose.alpha)] }
            return cards.face(at: pose.index, now: frameTime).quads(corners: corners, alpha: pose.alpha)
        }
        let items = config.items
        // Finished before this frame's overlays are looked up: they take what it holds, later
        // frames draw their own.
        let aheadFinished = overlays.drawnAhead?.isFinished == true
        defer { if aheadFinished { overlays.drawnAhead = nil } }
        overlays.leftOutForDrawnAhead = false
        // The dial ring is drawn first, under the cards: a subtle guide, never in the way.
        if let ring = overlays.dialRing(config.gestures.dial?.scaled(by: s)) { quads.insert(ring.quad, at: 0) }
        if let dots = overlays.pageIndicator(count: items.count, current: engine.currentIndex) { quads.append(dots.quad) }
        if items.indices.contains(engine.currentIndex), let title = overlays.title(for: items[engine.currentIndex]) {
            quads.append(title.quad)
        }
        // With two or more languages, the shown one's badge (the language control a finger taps).
        let languages = config.languages
        if languages.isMultilingual, let badge = overlays.languageBadge(languages.shownLanguage) { quads.append(badge.quad) }
        return quads
    }

    /// Draws the frame for time `now` (card fades) into `frame`; returns the damaged rectangles.
    public func renderFrame(full: Bool = false, now: Double = 0) -> [PixelRect] {
        let whole = full || fullFrameRequested
        shift?.update(now: now)
        needsFrame = false
        fullFrameRequested = false
        frameTime = now
        // A full-screen clip is letterboxed over black, not over the theme's background.
        let clip = video?.fullscreenQuads()
        return scene.render(clip ?? quads(), full: whole, over: clip == nil ? nil : 0xFF00_0000)
    }

    /// Asks for a frame whose damage is the whole screen, although the scene may not have
    /// changed: the picture on screen is not the cached frame any more (a black frame was shown
    /// while blanked, another program had the display). The layout and the cached frame stay.
    public func requestFullFrame() {
        fullFrameRequested = true
        needsFrame = true
    }

    /// Lays the scene out for a new screen size (hotplug, new mode); the next frame is full.
    ///
    /// - Parameter renderScale: the new render scale; nil keeps the current one. A new scale
    ///   draws the cards again for their new size.
    public func resize(width: Int, height: Int, renderScale newScale: Double? = nil) {
        let drawn = Self.drawnSize(width: width, height: height, scale: newScale ?? renderScale)
        let scaleChanged = drawn.scale != renderScale
        screenSize = (width, height)
        renderScale = drawn.scale
        let styled = look.apply(to: config)
        scene = SceneRenderer(width: drawn.width, height: drawn.height, config: styled)
        overlays = OverlayRenderer(style: OverlayStyle(theme: styled.theme.scaled(by: drawn.scale)),
                                   screenWidth: drawn.width, screenHeight: drawn.height)
        if scaleChanged {
            let size = CarouselSession.cardSize(config, scale: drawn.scale)
            cards.setCardSize(width: size.width, height: size.height)
            cards.update(items: styled.items.map { $0.scaled(by: drawn.scale) })
        }
        engine.viewSize = Size2(Double(width), Double(height))
        // A full-screen clip was decoded for the old size: the carousel comes back instead.
        video?.screenChanged(now: frameTime)
        needsFrame = true
    }

    /// Applies a new configuration without a restart, keeping the current item if it still exists.
    public func reload(_ new: KioskConfiguration, now: Double) {
        let currentID = config.items.indices.contains(engine.currentIndex) ? config.items[engine.currentIndex].id : nil
        let old = config
        config = new
        // A file that changes `[accessibility]` sets the look; otherwise a toggled look stays.
        let oldLook = look
        if new.accessibility != old.accessibility { look = AccessibleLook(new.accessibility) }
        engine.update(options: look.apply(to: new).carousel, itemCount: new.items.count, now: now)
        gestures.options = new.gestures
        gestures.vertical = new.carousel.vertical
        // The playing clip stops by itself when its item changed (CardVideo.update).
        video?.reload(new)
        shift?.reload(new, now: now)
        restyle(themeChanged: old.theme != new.theme || oldLook != look
                    || old.display.renderThreads != new.display.renderThreads)
        if let id = currentID, let i = new.items.firstIndex(where: { $0.id == id }), i != engine.currentIndex {
            engine.apply(.scrollTo(index: i, duration: 0), now: now)
        }
        needsFrame = true
    }

    /// The items as drawn: `config.items` with the look's card styles (the clips' card faces).
    var styledItems: [ItemConfig] { styled.items }

    /// Switches large text or high contrast: the overlays, the background and every card whose
    /// style changes are drawn again (the card pipeline's cached faces are replaced, as at a
    /// reload that changes their style).
    public func setLook(_ new: AccessibleLook, now: Double) {
        guard new != look else { return }
        look = new
        var options = new.apply(to: config).carousel
        options.autoscroll = engine.options.autoscroll  // attract mode's, or paused
        engine.update(options: options, itemCount: engine.itemCount, now: now)
        restyle(themeChanged: true)
        needsFrame = true
    }

    /// Makes the scene, the overlays and the cards draw `config` in `look`.
    private func restyle(themeChanged: Bool) {
        styled = look.apply(to: config)
        if themeChanged {
            scene = SceneRenderer(width: scene.width, height: scene.height, config: styled)
            overlays = OverlayRenderer(style: OverlayStyle(theme: styled.theme.scaled(by: renderScale)),
                                       screenWidth: scene.width, screenHeight: scene.height)
        }
        // Only the cards whose look changed are drawn again.
        let size = CarouselSession.cardSize(config, scale: renderScale)
        cards.setCardSize(width: size.width, height: size.height)
        cards.update(items: styled.items.map { $0.scaled(by: renderScale) })
    }

    /// Cards are drawn at the carousel's item size times the render scale.
    static func cardSize(_ config: KioskConfiguration, scale: Double = 1) -> (width: Int, height: Int) {
        let w = config.carousel.itemSize.width, h = config.carousel.itemSize.height
        if scale == 1 { return (max(1, Int(w)), max(1, Int(h))) }
        return (max(1, Int((w * scale).rounded())), max(1, Int((h * scale).rounded())))
    }
}

extension CarouselSession {
    /// Redraws the cards showing any of `paths` (images changed on disk).
    public func invalidateCards(paths: [String]) {
        cards.invalidate(paths: paths)
        needsFrame = true
    }
}
