import Audio
import Cards
import CarouselCore
import JSON
import KioskConfig
import Logging
import Raster

/// The clips of the scene: the centred video item's, playing on its card (`CardVideo`), and one
/// playing on the whole screen (`FullscreenVideo`), with the lines they write. The session's
/// owner (`KioskBehavior`) holds it and gives it to the session (`CarouselSession.video`),
/// which asks it for a card's face, for the quads that replace the scene, for the input and
/// intents a full-screen clip takes, and to pick the frames on each tick; `VideoFrames` wakes
/// the kiosk's loop for them.
public final class SceneVideo: ScenePlayback {
    private unowned let session: CarouselSession
    /// The centred video item's clip, playing on its card (`[video]`).
    let cardVideo: CardVideo
    /// A clip playing on the whole screen (`play = "fullscreen"`); kept after it ended while
    /// the touch that ended it is still down (its events are swallowed).
    private(set) var fullscreen: FullscreenVideo?
    private var events: [VideoEvent] = []
    private let logger = Logger(label: "kiosk.video")

    /// Where the clips of items with `audio = true` play their sound (the kiosk's `AudioComponent`,
    /// or `simulate --audio-out`'s recorder); nil: every clip plays muted.
    public var sound: AudioMixer? {
        get { cardVideo.sound }
        set { cardVideo.sound = newValue }
    }

    /// Plays `session`'s clips (and becomes its `video`), decoded in line when its cards are
    /// synchronous (`simulate`), else on the players' threads.
    public init(session: CarouselSession) {
        self.session = session
        cardVideo = CardVideo(settings: session.config.video, synchronous: session.cards.options.synchronous, logger: logger)
        session.video = self
    }

    /// Plays item `index`'s clip on the whole screen (its `play = "fullscreen"` action); the
    /// carousel stays where it is underneath.
    public func playFullscreen(index: Int, now: Double) {
        let items = session.config.items
        guard items.indices.contains(index), items[index].video != nil else { return }
        if cardVideo.reset(now: now, reason: "full screen") { session.needsFrame = true }
        let fs = FullscreenVideo(index: index, item: items[index], now: now, width: session.size.width,
                                 height: session.size.height, settings: session.config.video,
                                 synchronous: cardVideo.synchronous, sound: sound, logger: logger)
        fullscreen = fs
        events.append(VideoEvent(time: now, name: "video_fullscreen_started",
                                 fields: [("index", String(index)), ("id", JSONString.quoted(items[index].id))]))
        if !fs.isActive { endFullscreen(now: now) }
        session.needsFrame = true
    }

    /// True while a clip plays on the whole screen.
    public var isPlayingFullscreen: Bool { fullscreen?.isActive == true }

    /// Ends the full-screen clip now (another system asked for an item through the control
    /// socket: `reason` says so in `video_fullscreen_ended`).
    public func stopFullscreen(reason: String, now: Double) {
        guard let fs = fullscreen, fs.isActive else { return }
        fs.finish(reason)
        endFullscreen(now: now)
    }

    /// Stops every clip and shows posters (blanking: `suspended` true) or lets the centred card
    /// play again (waking).
    public func setSuspended(_ suspended: Bool, now: Double) {
        if suspended { stopFullscreen(reason: "blanked", now: now) }
        if cardVideo.setSuspended(suspended, now: now) { session.needsFrame = true }
    }

    /// The video lines for the event stream since the last call (`video_started`, …).
    public func takeEvents() -> [VideoEvent] {
        let all = events + cardVideo.takeEvents()
        events.removeAll()
        return all.sorted { $0.time < $1.time }
    }

    /// Picks the clips' frames for `now` (each tick): the full-screen clip's, or the centred
    /// card's once the carousel rests on it.
    public func update(now: Double) {
        if let fs = fullscreen {
            if fs.isActive {
                if fs.update(now: now) { session.needsFrame = true }
                if !fs.isActive { endFullscreen(now: now) }
                return
            }
            if !fs.holdsTouches { fullscreen = nil }
        }
        let engine = session.engine
        let size = CarouselSession.cardSize(session.config, scale: session.renderScale)
        if cardVideo.update(now: now, resting: !engine.isMoving, current: engine.currentIndex, items: session.styledItems,
                            cardWidth: size.width, cardHeight: size.height) {
            session.needsFrame = true
        }
    }

    /// The players of the clips playing now, each with the eventfd it signals when a frame was
    /// decoded or it ended or failed (`VideoFrames` watches them).
    var wakeSources: [(player: ObjectIdentifier, fd: Int32)] {
        [isPlayingFullscreen ? fullscreen?.wakeSource : nil, cardVideo.wakeSource].compactMap { $0 }
    }

    /// Clears the players' eventfds (before their news is taken with `update`).
    func drainWakes() {
        if isPlayingFullscreen { fullscreen?.drainWakes() }
        cardVideo.drainWakes()
    }

    /// When the clips next need `update` (session time): a decoded frame's time, the end of the
    /// full-screen clip's last frame, the start of the centred card's clip once the carousel
    /// has rested `start_delay`; now when a rest has begun that was not yet seen; nil when only
    /// their players' news (or the engine's tick) can change anything.
    func nextUpdate(now: Double) -> Double? {
        if let fs = fullscreen, fs.isActive { return fs.nextUpdate }
        let engine = session.engine
        guard !engine.isMoving else { return nil }  // the tick updates them while the carousel moves
        return cardVideo.nextUpdate(now: now, current: engine.currentIndex, items: session.styledItems)
    }

    /// The full-screen clip is over: the carousel is drawn again (the whole screen changes).
    private func endFullscreen(now: Double) {
        guard let fs = fullscreen, !fs.endReported else { return }
        fs.endReported = true
        events.append(VideoEvent(time: now, name: "video_fullscreen_ended",
                                 fields: [("index", String(fs.index)), ("id", JSONString.quoted(fs.item.id)),
                                          ("reason", JSONString.quoted(fs.endReason ?? "input"))]))
        if !fs.holdsTouches { fullscreen = nil }
        session.needsFrame = true
    }

    // MARK: What the session asks (ScenePlayback)

    var wantsTicks: Bool {
        isPlayingFullscreen || cardVideo.wantsTicks(current: session.engine.currentIndex, items: session.styledItems)
    }

    func takes(_ event: InputEvent, now: Double) -> Bool {
        guard let fs = fullscreen, fs.handle(event) else { return false }
        if !fs.isActive { endFullscreen(now: now) }
        return true
    }

    func holds(_ intent: Intent, now: Double) -> Bool {
        guard let fs = fullscreen, fs.isActive else { return false }
        switch intent {
        case .select, .cancel, .home:
            fs.finish("input")
            endFullscreen(now: now)
        default:
            break
        }
        return true
    }

    func carouselMoved(now: Double) { cardVideo.interrupt(now: now) }

    func face(at index: Int) -> Texture? { cardVideo.face(at: index) }

    func fullscreenQuads() -> [Quad]? { isPlayingFullscreen ? fullscreen?.quads() : nil }

    func screenChanged(now: Double) { stopFullscreen(reason: "screen changed", now: now) }

    func reload(_ config: KioskConfiguration) { cardVideo.settings = config.video }
}
