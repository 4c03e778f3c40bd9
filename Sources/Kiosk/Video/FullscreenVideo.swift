import Audio
import CarouselCore
import Cards
import KioskConfig
import Logging
import Raster
import Video

/// A clip played on the whole screen (`action = { play = "fullscreen" }`): letterboxed into the
/// scene's size — which is the rotated size, so it follows `[display] rotation` as the carousel
/// does — over black. It ends with the clip, or early on a touch, a key, a click or the knob's
/// button; the carousel underneath is left exactly as it was.
final class FullscreenVideo {
    let index: Int
    let item: ItemConfig
    private let player: VideoPlayer?
    /// Its sound (`audio = true`), on the same clock as its frames, and the mixer it plays in.
    private let soundtrack: Soundtrack?
    private let sound: AudioMixer?
    /// The session time the clip's time 0 corresponds to.
    private let start: Double
    private let screen: (width: Int, height: Int)
    private var shown: Texture?
    /// The clip time the shown frame's duration runs out.
    private var shownUntil = 0.0
    /// Why it ended, once it has.
    private(set) var endReason: String?
    /// The session wrote its `video_fullscreen_ended` line.
    var endReported = false
    /// Touch slots that went down to end the clip: their motion and lift are swallowed too.
    private(set) var swallowedSlots: Set<Int> = []

    /// Starts the clip of `item` for a `width × height` scene; nil reason when it can start.
    init(index: Int, item: ItemConfig, now: Double, width: Int, height: Int, settings: VideoSettings,
         synchronous: Bool, sound: AudioMixer?, logger: Logger) {
        self.index = index
        self.sound = sound
        self.item = item
        self.start = now
        screen = (max(1, width), max(1, height))
        let budget = VideoBudget(settings: settings)
        // At most the screen's pixels per frame (no mip levels: drawn 1:1).
        let frameBytes = screen.width * screen.height * 4
        let depth = budget.queueDepth(frameBytes: frameBytes)
        guard let path = item.video, depth > 0 else {
            if item.video != nil {
                logger.warning("\(budget.refusal(frameBytes: frameBytes, what: "video \(item.video!)")); not played full screen")
            }
            player = nil
            soundtrack = nil
            endReason = item.video == nil ? "no video" : "budget"
            return
        }
        let (w, h) = screen
        player = VideoPlayer(path: path, outputSize: { info in
            VideoStill.decodeSize(displayWidth: info.displayWidth, displayHeight: info.displayHeight, fit: .contain,
                                  boxWidth: w, boxHeight: h)
        }, options: budget.options(loop: false, queueDepth: depth, synchronous: synchronous), logger: logger)
        var once = item
        once.loop = false
        soundtrack = Soundtrack.start(item: once, path: path, at: now, mixer: sound, synchronous: synchronous, logger: logger)
    }

    deinit {
        player?.stop()
        soundtrack?.stop(in: sound)
    }

    /// The player and the eventfd it signals (a frame decoded, the end); nil without a player.
    var wakeSource: (player: ObjectIdentifier, fd: Int32)? {
        player.map { (ObjectIdentifier($0), $0.eventFD) }
    }

    /// Clears the player's eventfd.
    func drainWakes() { player?.drainEvents() }

    /// When `update` next has something to do (session time): the next decoded frame's time, or
    /// the end of the last frame's duration once the player has ended; nil while it waits for
    /// the player's news.
    var nextUpdate: Double? {
        guard isActive, let player else { return nil }
        if let t = player.nextFrameTime { return start + t }
        if case .ended = player.state { return start + shownUntil }
        return nil
    }

    /// True until the clip ended or was ended.
    var isActive: Bool { endReason == nil }

    /// Advances to session time `now`; returns true when the picture changed. Sets `endReason`
    /// when the clip is over ("end") or failed ("failed: …").
    func update(now: Double) -> Bool {
        guard isActive, let player else { return false }
        var changed = false
        if let f = player.frame(at: now - start), f.texture !== shown {
            shown = f.texture
            shownUntil = f.time + f.duration
            changed = true
        }
        // The player reports the end (or a failure) as soon as its thread gets there: the frames
        // it queued before are shown first, the last one for its whole duration.
        guard player.nextFrameTime == nil else { return changed }
        switch player.state {
        case .ended:
            if now - start >= shownUntil - 1e-6 { finish("end") }
        case .failed(let reason): finish("failed: \(reason)")
        default: break
        }
        return changed
    }

    /// An input event while the clip plays. Returns true when it was taken here (always while
    /// the clip plays: nothing reaches the carousel underneath). A touch going down, a pressed
    /// key or button, or the knob's button end the clip; a knob turn is ignored.
    func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown(let slot, _, _):
            swallowedSlots.insert(slot)
            if isActive { finish("input") }
            return true
        case .touchMotion(let slot, _, _):
            return isActive || swallowedSlots.contains(slot)
        case .touchUp(let slot), .touchCancel(let slot):
            return swallowedSlots.remove(slot) != nil || isActive
        case .keyDown, .pointerButton(pressed: true):
            if isActive { finish("input") }
            return true
        case .keyUp, .pointerButton, .pointerMotion, .pointerAxis, .rotary, .headphones:
            return isActive
        }
    }

    /// True while touches that ended the clip are still down (their events are still swallowed).
    var holdsTouches: Bool { !swallowedSlots.isEmpty }

    /// Ends the clip now (its thread stops).
    func finish(_ reason: String) {
        guard endReason == nil else { return }
        endReason = reason
        player?.stop()
        soundtrack?.stop(in: sound)
    }

    /// The clip's frame letterboxed in the middle (the session draws it over black); nothing
    /// until the first frame is decoded.
    func quads() -> [Quad] {
        guard let t = shown else { return [] }
        let W = Double(screen.width), H = Double(screen.height)
        let p = ImageFit.contain.place(imageWidth: Double(t.width), imageHeight: Double(t.height), boxWidth: W, boxHeight: H)
        let x0 = p.x.rounded(), y0 = p.y.rounded(), x1 = (p.x + p.width).rounded(), y1 = (p.y + p.height).rounded()
        return [Quad(texture: t, corners: [Point2(x0, y0), Point2(x1, y0), Point2(x1, y1), Point2(x0, y1)], alpha: 1)]
    }

    /// The decoder that runs, for the event stream.
    var decoderDescription: String { player?.decoderDescription ?? "none" }
}
