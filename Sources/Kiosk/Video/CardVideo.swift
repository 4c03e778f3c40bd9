import Audio
import Cards
import JSON
import KioskConfig
import Logging
import Raster
import Video

/// The clip of the centred video item, playing on its card while the carousel rests on it.
///
/// - Playback starts once the carousel has rested on a video item for `[video] start_delay`
///   seconds; the clip is decoded on the player's own thread at the size the card draws it, and
///   each frame becomes the card's face there too (`VideoFaceComposer`: title, shadow and
///   corners as on the poster, kept from frame to frame, in pooled textures). The loop only
///   swaps textures, so only the card's rectangle is drawn again.
/// - Anything that moves the carousel stops it at once (`interrupt`); the card keeps the frame
///   it showed while that item stays current, and shows its poster again once another item is.
/// - A clip that ends (without `loop`) keeps its last frame until the carousel moves; a clip
///   that fails keeps its last good frame (the player logs once).
///
/// In synchronous mode (`simulate`) frames are decoded on the calling thread for the virtual
/// time asked: the same script gives the same frames.
final class CardVideo {
    private struct Playing {
        let index: Int
        let item: ItemConfig
        let player: VideoPlayer
        /// Makes its frames the card's faces, in pooled textures.
        let faces: VideoFaceComposer
        /// The session time the clip's time 0 corresponds to.
        let start: Double
        /// Its sound in the mixer (`audio = true`), on the same clock as its frames.
        let soundtrack: Soundtrack?
        var shown: Texture?
        var failureReported = false
    }

    var settings: VideoSettings
    let synchronous: Bool
    /// Where a clip's sound plays (`audio = true`); nil: clips play muted.
    var sound: AudioMixer?
    private let renderer = CardFaceRenderer()
    private let logger: Logger
    private var playing: Playing?
    /// The last frame of a stopped clip, kept on its card while that item stays current.
    private var held: (index: Int, texture: Texture)?
    /// Since when the carousel rests (nil while it moves).
    private var restingSince: Double?
    /// An item whose clip ended (no loop) or could not play: not started again until the
    /// carousel moves.
    private var done: Int?
    /// Items whose clip was refused by the budget (logged once each).
    private var refusedByBudget: Set<String> = []
    /// Lines for the event stream, taken by the session.
    private(set) var events: [VideoEvent] = []

    init(settings: VideoSettings, synchronous: Bool, logger: Logger = Logger(label: "kiosk.video")) {
        self.settings = settings
        self.synchronous = synchronous
        self.logger = logger
    }

    deinit {
        playing?.player.stop()
        playing?.soundtrack?.stop(in: sound)
    }

    /// True while a clip plays (the loop keeps ticking to show its frames).
    var isPlaying: Bool { playing != nil }

    /// Face textures the playing clip's composer has made so far (for tests: it stays put
    /// while frames follow each other).
    var playingFaceAllocations: Int? { playing?.faces.allocations }

    /// Blanked: nothing plays and cards show their posters until woken.
    private(set) var suspended = false

    /// True while the loop must tick for the centred card: its clip plays, or the carousel rests
    /// on a video item whose clip is about to start (`start_delay`).
    func wantsTicks(current: Int, items: [ItemConfig]) -> Bool {
        if playing != nil { return true }
        guard settings.playCentred, !suspended, done != current, items.indices.contains(current) else { return false }
        return items[current].video != nil
    }

    /// The playing clip's player and the eventfd it signals (a frame decoded, the end).
    var wakeSource: (player: ObjectIdentifier, fd: Int32)? {
        playing.map { (ObjectIdentifier($0.player), $0.player.eventFD) }
    }

    /// Clears the playing clip's eventfd.
    func drainWakes() { playing?.player.drainEvents() }

    /// When `update` next has something to do while the carousel rests on `current` (session
    /// time): the next decoded frame's time; the clip's start after `start_delay`; `now` when the
    /// rest has not been seen yet. Nil while a clip waits for its player's news (decoding, the
    /// end: its eventfd) or nothing is to play.
    func nextUpdate(now: Double, current: Int, items: [ItemConfig]) -> Double? {
        if let p = playing { return p.player.nextFrameTime.map { p.start + $0 } }
        guard wantsTicks(current: current, items: items) else { return nil }
        guard let rest = restingSince else { return now }
        return rest + settings.startDelay
    }

    /// Blanking stops the clip and drops kept frames; waking lets the centred card play again.
    /// Returns true when a card's look changed.
    func setSuspended(_ value: Bool, now: Double) -> Bool {
        guard value != suspended else { return false }
        suspended = value
        return value ? reset(now: now, reason: "blanked") : false
    }

    /// The face to draw for item `index` instead of the pipeline's: the playing clip's frame or
    /// the frame kept after a stop; nil for the poster.
    func face(at index: Int) -> Texture? {
        if let p = playing, p.index == index, let t = p.shown { return t }
        // Until a restarted clip's first frame is ready the card keeps the frame it had.
        if let h = held, h.index == index { return h.texture }
        return nil
    }

    /// The carousel moved (a drag, a knob turn, a key, a scroll): the clip stops at once and the
    /// card keeps the frame it showed. Returns true when the card's look changed.
    @discardableResult
    func interrupt(now: Double) -> Bool {
        restingSince = nil
        done = nil
        return stop(now: now, reason: "moved", keepFrame: true)
    }

    /// Stops everything and drops kept frames (blanking, a full-screen clip, a reload): cards
    /// show their posters again. Returns true when a card's look changed.
    @discardableResult
    func reset(now: Double, reason: String) -> Bool {
        restingSince = nil
        done = nil
        var changed = stop(now: now, reason: reason, keepFrame: false)
        if held != nil { held = nil; changed = true }
        return changed
    }

    /// Called every tick and frame: starts, advances or stops playback. `resting` is false while
    /// the engine moves; `current` is the item at the focus. Returns true when a card's face
    /// changed (a frame is due).
    func update(now: Double, resting: Bool, current: Int, items: [ItemConfig], cardWidth: Int, cardHeight: Int) -> Bool {
        var changed = false
        guard settings.playCentred, !suspended else { return reset(now: now, reason: suspended ? "blanked" : "off") }
        guard resting else { return interrupt(now: now) }
        if restingSince == nil { restingSince = now }
        if let h = held, h.index != current { held = nil; changed = true }
        if let p = playing, p.index != current || p.item != (items.indices.contains(p.index) ? items[p.index] : nil) {
            changed = stop(now: now, reason: "moved", keepFrame: false) || changed
        }
        if playing == nil, settings.playCentred, done != current, items.indices.contains(current),
           let path = items[current].video, now - (restingSince ?? now) >= settings.startDelay - 1e-9 {
            start(index: current, item: items[current], path: path, now: now, cardWidth: cardWidth, cardHeight: cardHeight)
        }
        if var p = playing {
            if let f = p.player.frame(at: now - p.start), f.texture !== p.shown {
                p.shown = f.texture
                held = nil
                changed = true
            }
            // The player reports the end (or a failure) as soon as its thread gets there; the
            // frames it queued before are still shown first.
            let drained = p.player.nextFrameTime == nil
            switch p.player.state {
            case .ended where drained:
                playing = p
                events.append(VideoEvent(time: now, name: "video_ended", fields: fields(p)))
                finish(keepFrame: true)
                done = p.index
            case .failed(let reason) where drained:
                if !p.failureReported {
                    p.failureReported = true
                    events.append(VideoEvent(time: now, name: "video_failed",
                                             fields: fields(p) + [("reason", JSONString.quoted(reason))]))
                }
                playing = p
                finish(keepFrame: true)
                done = p.index
            default:
                playing = p
            }
        }
        return changed
    }

    /// Takes the event lines collected since the last call.
    func takeEvents() -> [VideoEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: Starting and stopping

    private func start(index: Int, item: ItemConfig, path: String, now: Double, cardWidth: Int, cardHeight: Int) {
        let budget = VideoBudget(settings: settings)
        // The composed face with its mip levels (a third more) is what waits in the queue.
        let frameBytes = cardWidth * cardHeight * 4 * 4 / 3
        let depth = budget.queueDepth(frameBytes: frameBytes)
        guard depth > 0 else {
            if refusedByBudget.insert(item.id).inserted {
                logger.warning("\(budget.refusal(frameBytes: frameBytes, what: "video \(path)")); the card keeps its poster")
            }
            done = index
            return
        }
        // The faces come from a pool (the queue, the face shown and the one being drawn) with
        // the card's background and text made once: no texture is allocated per frame.
        let faces = VideoFaceComposer(item: item, width: cardWidth, height: cardHeight, capacity: depth + 2,
                                      renderer: renderer)
        let fit = ImageFit(styleName: item.style.imageFit)
        // A clip fitted `cover` shows only the card's width of its frames: the scaler may leave
        // the cropped sides out (the composer never looks at them).
        let player = VideoPlayer(path: path, outputSize: { info in
            VideoStill.decodeSize(displayWidth: info.displayWidth, displayHeight: info.displayHeight, fit: fit,
                                  boxWidth: cardWidth, boxHeight: cardHeight)
        }, shownWidth: fit == .cover ? cardWidth : nil, options: budget.options(loop: item.loop, queueDepth: depth, synchronous: synchronous),
           target: faces.target(frameWidth:frameHeight:columns:), compose: faces.face(showing:), logger: logger)
        if let h = held, h.index != index { held = nil }
        let soundtrack = Soundtrack.start(item: item, path: path, at: now, mixer: sound, synchronous: synchronous, logger: logger)
        playing = Playing(index: index, item: item, player: player, faces: faces, start: now, soundtrack: soundtrack)
        events.append(VideoEvent(time: now, name: "video_started", fields: fields(playing!)))
    }

    /// Stops the playing clip; the card keeps its last frame when `keepFrame`.
    private func stop(now: Double, reason: String, keepFrame: Bool) -> Bool {
        guard let p = playing else { return false }
        events.append(VideoEvent(time: now, name: "video_stopped", fields: fields(p) + [("reason", JSONString.quoted(reason))]))
        return finish(keepFrame: keepFrame)
    }

    /// Ends the player (its thread stops) and keeps or drops its last frame.
    @discardableResult
    private func finish(keepFrame: Bool) -> Bool {
        guard let p = playing else { return false }
        p.player.stop()
        p.soundtrack?.stop(in: sound)
        playing = nil
        if keepFrame, let t = p.shown {
            held = (p.index, t)
            return false
        }
        return p.shown != nil
    }

    private func fields(_ p: Playing) -> [(String, String)] {
        [("index", String(p.index)), ("id", JSONString.quoted(p.item.id))]
    }
}
