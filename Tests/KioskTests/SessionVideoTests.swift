import CarouselCore
import Foundation
import Input
import JSON
import KioskConfig
import Raster
import TestSupport
import XCTest
@testable import Kiosk
@testable import Cards

/// Video items in the session, on the virtual clock (synchronous decoding: frames chosen by
/// virtual time): the centred card plays in place, moving stops it, only the card is redrawn,
/// `play = "fullscreen"` and the idle stages.
final class SessionVideoTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// The clips of each session made with `withClips`, held for the test as `KioskBehavior`
    /// holds them in the kiosk.
    private var clips: [ObjectIdentifier: SceneVideo] = [:]

    /// `s`, its clips played (`SceneVideo`, held until the test ends).
    private func withClips(_ s: CarouselSession) -> CarouselSession {
        clips[ObjectIdentifier(s)] = SceneVideo(session: s)
        return s
    }

    /// The clips of a session made with `withClips`.
    private func video(_ s: CarouselSession) -> SceneVideo { clips[ObjectIdentifier(s)]! }

    /// Three items on a linear strip, the first a video (the clip `clip`).
    private func config(clip: String, extra: String = "", action: String = "", loop: Bool = true) throws -> KioskConfiguration {
        let text = """
            [carousel]
            type = "linear"
            item_size = [160, 120]
            [video]
            start_delay = 0
            \(extra)
            [[item]]
            id = "film"
            title = "Film"
            video = "\(clip)"
            loop = \(loop)
            \(action)
            [[item]]
            id = "b"
            title = "B"
            [[item]]
            id = "c"
            title = "C"
            """
        let path = folder.appendingPathComponent("kiosk.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ConfigLoader.load(path: path)
    }

    /// Steps the session on its tick from `from` to `to` (as `simulate` does) and draws a frame.
    @discardableResult
    private func run(_ s: CarouselSession, from: Double, to: Double, events: inout [TimedCarouselEvent]) -> [PixelRect] {
        let dt = 1 / s.config.carousel.tickHz
        var t = from
        var damage: [PixelRect] = []
        while t < to - 1e-9 {
            t = min(to, t + dt)
            events += s.tick(now: t)
            if s.needsFrame { damage += s.renderFrame(now: t) }
        }
        return damage
    }

    /// The texture drawn for the item at the centre now.
    private func centreTexture(_ s: CarouselSession) -> Texture? {
        let centre = Point2(Double(s.size.width) / 2, Double(s.size.height) / 2)
        return s.quads().last { q in
            let xs = q.corners.map(\.x), ys = q.corners.map(\.y)
            return xs.min()! < centre.x && xs.max()! > centre.x && ys.min()! < centre.y && ys.max()! > centre.y
                && q.texture.width == 160
        }?.texture
    }

    private func pixels(_ t: Texture) -> [UInt32] { Array(UnsafeBufferPointer(start: t.pixels, count: t.width * t.height)) }

    func testTheCentredCardPlaysItsClipFramesChosenByTime() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = s.renderFrame(now: 0)
        let poster = try XCTUnwrap(centreTexture(s))
        run(s, from: 0, to: 1.0, events: &events)
        let at1 = pixels(try XCTUnwrap(centreTexture(s)))
        run(s, from: 1.0, to: 1.5, events: &events)
        let at15 = pixels(try XCTUnwrap(centreTexture(s)))
        XCTAssertNotEqual(at1, at15, "t = 1.0 and 1.5 s of playback show different frames")
        XCTAssertNotEqual(at1, pixels(poster))
        XCTAssertTrue(s.isMoving, "a playing clip keeps the loop ticking")
        XCTAssertEqual(video(s).takeEvents().map(\.name), ["video_started"])

        // The same plan again gives the same frames (deterministic).
        let again = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        var events2: [TimedCarouselEvent] = []
        _ = again.renderFrame(now: 0)
        run(again, from: 0, to: 1.0, events: &events2)
        XCTAssertEqual(pixels(try XCTUnwrap(centreTexture(again))), at1)
    }

    /// The playing card's faces come from a pool (issue 28 §6): frame after frame, the same few
    /// textures are drawn again (each new picture a new generation, so the card is redrawn).
    func testPlayingFramesReuseTheirFaceTexturesAndEachNewOneIsDrawn() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        _ = s.renderFrame(now: 0)
        var pictures = Set<[Int]>()
        var undrawn = 0
        var t = 0.0
        while t < 2.5 {
            t += 1 / s.config.carousel.tickHz
            _ = s.tick(now: t)
            let face = video(s).cardVideo.face(at: 0)
            let picture = face.map { [ObjectIdentifier($0).hashValue, $0.generation] }
            let damage = s.needsFrame ? s.renderFrame(now: t) : []
            if let picture, pictures.insert(picture).inserted, damage.isEmpty { undrawn += 1 }
        }
        XCTAssertGreaterThanOrEqual(pictures.count, 20, "a 10 fps clip shows 25 frames in 2.5 s")
        XCTAssertEqual(undrawn, 0, "each new picture in a reused texture is drawn")
        XCTAssertLessThanOrEqual(try XCTUnwrap(video(s).cardVideo.playingFaceAllocations), 3, "no face texture made per frame")
    }

    /// The same on the player's own thread (as `run` plays): the faces in the queue, the one
    /// shown and the one being drawn are the pool; no more are made while frames follow. Waits
    /// (up to 30 s) for 12 pictures, however slow the machine.
    func testOnItsOwnThreadThePlayerReusesTheSameFewFaces() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320, synchronousCards: false))
        let start = Date()
        var pictures = Set<[Int]>()
        while pictures.count < 12 && Date().timeIntervalSince(start) < 30 {
            usleep(5_000)
            let now = Date().timeIntervalSince(start)
            s.drainCards(now: now)
            _ = s.tick(now: now)
            if s.needsFrame { _ = s.renderFrame(now: now) }
            if let face = video(s).cardVideo.face(at: 0) { pictures.insert([ObjectIdentifier(face).hashValue, face.generation]) }
        }
        XCTAssertGreaterThanOrEqual(pictures.count, 12, "the clip played")
        // Queue depth 3, the face shown, the one being drawn, and the one shown before while
        // this thread lets it go.
        XCTAssertLessThanOrEqual(try XCTUnwrap(video(s).cardVideo.playingFaceAllocations), 6)
    }

    func testOnlyTheCardsRectangleIsRedrawnWhilePlaying() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = s.renderFrame(now: 0)
        run(s, from: 0, to: 0.5, events: &events)
        let damage = run(s, from: 0.5, to: 1.0, events: &events)
        XCTAssertFalse(damage.isEmpty, "new frames were drawn")
        // The card is 160x120 at the centre of 480x320: x 160..<320, y 100..<220.
        for r in damage {
            XCTAssertGreaterThanOrEqual(r.x, 159); XCTAssertLessThanOrEqual(r.x + r.width, 321)
            XCTAssertGreaterThanOrEqual(r.y, 99); XCTAssertLessThanOrEqual(r.y + r.height, 221)
        }
    }

    func testMovingStopsPlaybackKeepsTheFrameThenThePosterComesBack() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = s.renderFrame(now: 0)
        let poster = pixels(try XCTUnwrap(centreTexture(s)))
        run(s, from: 0, to: 1.0, events: &events)
        let last = try XCTUnwrap(video(s).cardVideo.face(at: 0))
        s.apply(.step(1), now: 1.0)
        XCTAssertFalse(video(s).cardVideo.isPlaying, "the move stopped the clip at once")
        XCTAssertTrue(video(s).cardVideo.face(at: 0) === last, "the card keeps the frame it showed while it moves away")
        run(s, from: 1.0, to: 3.0, events: &events)
        XCTAssertEqual(s.position.index, 1)
        XCTAssertNil(video(s).cardVideo.face(at: 0), "another item is current: the card shows its poster again")
        XCTAssertEqual(pixels(s.cards.face(at: 0, now: 3).texture), poster)
        XCTAssertEqual(video(s).takeEvents().map(\.name), ["video_started", "video_stopped"])
    }

    func testAClipWithoutLoopEndsOnItsLastFrameAndTheTicksStop() throws {
        let clip = try TestClips.moving(seconds: 1)
        let s = withClips(CarouselSession(config: try config(clip: clip, loop: false), width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = s.renderFrame(now: 0)
        run(s, from: 0, to: 2.0, events: &events)
        XCTAssertFalse(video(s).cardVideo.isPlaying)
        XCTAssertNotNil(video(s).cardVideo.face(at: 0), "the last frame stays")
        XCTAssertFalse(s.isMoving, "nothing plays: the loop sleeps")
        XCTAssertEqual(video(s).takeEvents().map(\.name), ["video_started", "video_ended"])
    }

    func testStartDelayAndPlayCentredOff() throws {
        let clip = try TestClips.moving()
        var delayedConfig = try config(clip: clip)
        delayedConfig.video.startDelay = 0.5
        let delayed = withClips(CarouselSession(config: delayedConfig, width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = delayed.renderFrame(now: 0)
        run(delayed, from: 0, to: 0.4, events: &events)
        XCTAssertFalse(video(delayed).cardVideo.isPlaying)
        XCTAssertTrue(delayed.isMoving, "the loop ticks until the delay is over")
        run(delayed, from: 0.4, to: 0.6, events: &events)
        XCTAssertTrue(video(delayed).cardVideo.isPlaying)

        let off = withClips(CarouselSession(config: try config(clip: clip, extra: "play_centred = false"), width: 480, height: 320))
        _ = off.renderFrame(now: 0)
        run(off, from: 0, to: 1, events: &events)
        XCTAssertFalse(video(off).cardVideo.isPlaying)
        XCTAssertFalse(off.isMoving)
    }

    func testTheBudgetRefusesAClipWhoseFramesDoNotFit() throws {
        let clip = try TestClips.moving()
        // 4000x3000 cards: one composed frame is ~61 MiB, over budget_mb = 1.
        var c = try config(clip: clip, extra: "budget_mb = 1")
        c.carousel.itemSize = Size2(4000, 3000)
        let s = withClips(CarouselSession(config: c, width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        run(s, from: 0, to: 0.5, events: &events)
        XCTAssertFalse(video(s).cardVideo.isPlaying)
        XCTAssertFalse(s.isMoving, "a refused clip does not keep the loop ticking")
    }

    func testFullscreenPlaysLetterboxedAndReturnsWhereItWas() throws {
        let clip = try TestClips.moving(seconds: 2)
        let path = folder.appendingPathComponent("events.jsonl").path
        let s = CarouselSession(config: try config(clip: clip, action: "action = { play = \"fullscreen\" }"), width: 480, height: 320)
        let behavior = KioskBehavior(session: s, log: try EventLog(path: path), now: 0, performAction: KioskBehavior.simulatedAction)
        _ = s.renderFrame(now: 0)
        behavior.command(.select, now: 0.1)
        behavior.flushEvents()
        XCTAssertTrue(behavior.video.isPlayingFullscreen)
        behavior.tick(now: 0.5)
        let quads = s.quads()
        XCTAssertEqual(quads.count, 1, "the clip alone, over black")
        // A 4:3 clip in a 480x320 screen: 427x320 in the middle.
        let frame = quads[0]
        _ = s.renderFrame(now: 0.5)
        XCTAssertEqual(s.frame.pixels[160 * s.frame.stride + 5] & 0xFFFFFF, 0, "the bars are black, not the theme's background")
        XCTAssertEqual(frame.corners[0].y, 0)
        XCTAssertEqual(frame.corners[2].y, 320)
        XCTAssertEqual(frame.corners[0].x, 27, accuracy: 1)
        XCTAssertEqual(frame.corners[2].x, 453, accuracy: 1)
        // A touch ends it; its motion and lift do not reach the carousel.
        behavior.input(.touchDown(slot: 0, x: 100, y: 100), now: 0.6)
        XCTAssertFalse(behavior.video.isPlayingFullscreen)
        behavior.input(.touchMotion(slot: 0, x: 300, y: 100), now: 0.65)
        behavior.input(.touchUp(slot: 0), now: 0.7)
        behavior.tick(now: 0.75)
        XCTAssertEqual(s.position.index, 0)
        XCTAssertEqual(s.position.offset, 0, "the carousel is exactly where it was")
        let names = behavior.log.lines.compactMap { JSONValue.parse($0)?.objectValue?["event"]?.stringValue }
        XCTAssertTrue(names.contains("video_fullscreen_started"), "\(names)")
        XCTAssertTrue(names.contains("video_fullscreen_ended"), "\(names)")

        // Played to its end, it comes back by itself.
        behavior.command(.select, now: 1)
        behavior.flushEvents()
        var t = 1.0
        while t < 4 && behavior.video.isPlayingFullscreen { t += 1 / 60; behavior.tick(now: t) }
        XCTAssertFalse(behavior.video.isPlayingFullscreen)
        // Started at 1 s; its last frame (10 fps) is shown from 1.9 s to 2.0 s of the clip.
        XCTAssertEqual(t, 3, accuracy: 1.5 / 60, "the 2 s clip ended after 2 s, its last frame shown for its whole duration")
    }

    /// A control command (another system asked for an item) ends a full-screen clip and is
    /// carried out; the demo's intents (not activity) wait for the clip.
    func testAControlCommandEndsAFullscreenClipTheDemoDoesNot() throws {
        let clip = try TestClips.moving(seconds: 2)
        let s = CarouselSession(config: try config(clip: clip, action: "action = { play = \"fullscreen\" }"), width: 480, height: 320)
        let behavior = KioskBehavior(session: s, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
        _ = s.renderFrame(now: 0)
        behavior.command(.select, now: 0.1)
        behavior.flushEvents()
        XCTAssertTrue(behavior.video.isPlayingFullscreen)
        behavior.apply(.scrollBy(items: 1, duration: nil), now: 0.3)
        XCTAssertTrue(behavior.video.isPlayingFullscreen, "the demo waits")
        behavior.command(.scrollTo(index: 2, duration: 0), now: 0.5)
        behavior.flushEvents()
        XCTAssertFalse(behavior.video.isPlayingFullscreen)
        behavior.tick(now: 0.6)
        XCTAssertEqual(s.position.index, 2)
        let ended = behavior.log.lines.first { $0.contains("video_fullscreen_ended") }
        XCTAssertTrue(ended?.contains("\"reason\":\"command\"") == true, ended ?? "no video_fullscreen_ended")
    }

    func testBlankingStopsTheClipAndWakingShowsThePoster() throws {
        let clip = try TestClips.moving()
        let s = withClips(CarouselSession(config: try config(clip: clip), width: 480, height: 320))
        var events: [TimedCarouselEvent] = []
        _ = s.renderFrame(now: 0)
        run(s, from: 0, to: 0.5, events: &events)
        XCTAssertTrue(video(s).cardVideo.isPlaying)
        video(s).setSuspended(true, now: 0.5)
        XCTAssertFalse(video(s).cardVideo.isPlaying)
        XCTAssertNil(video(s).cardVideo.face(at: 0))
        run(s, from: 0.5, to: 1, events: &events)
        XCTAssertFalse(video(s).cardVideo.isPlaying, "nothing plays while blanked")
        video(s).setSuspended(false, now: 1)
        run(s, from: 1, to: 1.2, events: &events)
        XCTAssertTrue(video(s).cardVideo.isPlaying, "awake and resting: the clip plays again")
    }
}

/// `simulate` with a video item: PNG shots of the centred card at 1.0 s and 1.5 s of playback
/// differ, the same plan writes the same bytes, and after a swipe the card shows its poster.
final class SimulatorVideoTests: XCTestCase {
    func testShotsDuringPlaybackAndThePosterAfterASwipe() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simvideo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try TestClips.moving()
        let configPath = folder.appendingPathComponent("kiosk.toml").path
        try """
            [carousel]
            type = "linear"
            item_size = [160, 120]
            [video]
            start_delay = 0
            [[item]]
            title = "Film"
            video = "\(clip)"
            [[item]]
            title = "B"
            [[item]]
            title = "C"
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        func simulate(_ tag: String) throws -> [String: [UInt32]] {
            var plan = SimulationPlan(config: try ConfigLoader.load(path: configPath), width: 480, height: 320)
            // A swipe to the left at 2.0 s: the next item comes to the centre.
            plan.script = [
                TimedInputEvent(time: 2.0, event: .touchDown(slot: 0, x: 300, y: 160)),
                TimedInputEvent(time: 2.05, event: .touchMotion(slot: 0, x: 250, y: 160)),
                TimedInputEvent(time: 2.1, event: .touchMotion(slot: 0, x: 180, y: 160)),
                TimedInputEvent(time: 2.15, event: .touchUp(slot: 0)),
            ]
            plan.until = 4.5
            let shots = [("poster", 0.0), ("t1", 1.0), ("t15", 1.5), ("after", 4.5)]
            plan.shots = shots.map { (time: $0.1, path: folder.appendingPathComponent("\(tag)-\($0.0).png").path) }
            try Simulator(plan: plan, log: try EventLog(path: nil)).run()
            var out: [String: [UInt32]] = [:]
            for (name, _) in shots {
                let path = folder.appendingPathComponent("\(tag)-\(name).png").path
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                let t = try PNGDecoder.decode(bytes, file: path, limits: ImageLimits())
                // Item 0's card: at the centre before the swipe, one card (160 + spacing) to the
                // left after it.
                let x0 = name == "after" ? 0 : 160
                var card: [UInt32] = []
                for y in 100..<220 { for x in x0..<(x0 + 160) { card.append(t[x, y]) } }
                out[name] = card
                out[name + "-full"] = Array(UnsafeBufferPointer(start: t.pixels, count: t.width * t.height))
            }
            return out
        }
        let a = try simulate("a")
        XCTAssertNotEqual(a["t1"], a["t15"], "two different frames of the clip")
        XCTAssertNotEqual(a["t1"], a["poster"])
        XCTAssertEqual(a["after-full"], try simulate("b")["after-full"], "the same plan draws the same frames")
        XCTAssertEqual(a["t1-full"], try simulate("c")["t1-full"])
        // The poster again after the swipe. The card sits elsewhere then; compare it with the
        // poster drawn at the centre through the shots' own pixels: both show the clip's first
        // frame, so they are equal to each other but not to the playing frames.
        XCTAssertNotEqual(a["after"], a["t15"])
    }
}
