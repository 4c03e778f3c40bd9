import ArgumentParser
import Audio
import CarouselCore
import Cards
import Foundation
import Kiosk
import KioskConfig
import LinuxSystem
import Logging
import Video

/// `bench video`: what video items cost. CPU per frame of H.264 clips at 480p, 720p and 1080p
/// decoded only (the floor), decoded and scaled to a card's size, and on a card (made the card's
/// face as a playing card's player does); the process's CPU while a 720p clip plays on a card of a
/// 1080p carousel (against the same carousel showing the poster); and the frame time of a drag
/// over a playing card against the same drag without video; and the same playback of a clip with
/// a sound track, muted and with its sound mixed (`audio = true`, pulled at the real rate by
/// `BenchSoundPull`). The clips are made once with the `ffmpeg` command (testsrc2, libx264; a
/// sine tone in AAC) and kept in the cache folder.
struct BenchVideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "video",
        abstract: "Video CPU ms/frame (480p/720p/1080p H.264: decode only, decode+scale to a card, on a card), CPU while a card plays, drag frame time with and without a playing card.",
        usage: "kiosk-carousel bench video [options]")

    @Option(help: "Card size, WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var card = PixelSize(480, 360)
    @Option(help: "Screen size of the carousel, WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var screen = PixelSize(1920, 1080)
    @Option(help: "Seconds of real-time playback for the CPU figure.") var seconds = 8.0
    @Option(help: "Frames of the timed drag.") var dragFrames = 90
    @Flag(help: "Only the playback of the clip with a sound track, muted and with its sound.") var soundOnly = false
    @Option(help: "Folder for the generated clips (kept between runs).")
    var cache = (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")) + "/kiosk-carousel/bench-video"

    /// The option checks: ArgumentParser prints `bench video`'s usage with their message.
    func validate() throws {
        guard seconds > 0, dragFrames > 10 else { throw ValidationError("--seconds must be positive and --drag-frames above 10") }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        print(VideoCapabilities.current().summary)
        if soundOnly { return try soundPlayback(clip: try clip(size: "1280x720", tone: true)) }
        print("bench video: decode to a \(card.width)×\(card.height) card (cover), one decoder thread; wall and thread CPU per frame")
        let clips = [("480p", "854x480"), ("720p", "1280x720"), ("1080p", "1920x1080")]
        var paths: [String: String] = [:]
        for (name, size) in clips {
            let path = try clip(size: size)
            paths[name] = path
            try decode(label: "H.264 \(name) (\(size), 30 fps)", path: path)
        }
        guard let clip720 = paths["720p"] else { return }
        try playback(clip: clip720)
        try drag(clip: clip720)
        try soundPlayback(clip: try clip(size: "1280x720", tone: true))
    }

    // MARK: Clips

    /// A 10 s testsrc2 clip at `size`, 30 fps, H.264 (made once); with `tone`, a 440 Hz sine as
    /// its AAC sound track.
    func clip(size: String, tone: Bool = false) throws -> String {
        let path = "\(cache)/testsrc2-\(size)-30fps-10s\(tone ? "-sine440" : "").mp4"
        if FileManager.default.fileExists(atPath: path) { return path }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw CommandFailure("bench video makes its clips with ffmpeg: apt-get install ffmpeg (scripts/install-deps.sh)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        let sound = tone ? ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=10"] : []
        p.arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=10"]
            + sound + ["-c:v", "libx264", "-preset", "fast", "-pix_fmt", "yuv420p"] + (tone ? ["-c:a", "aac", "-shortest"] : [])
            + [path + ".part.mp4"]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CommandFailure("ffmpeg failed making \(path)") }
        try FileManager.default.moveItem(atPath: path + ".part.mp4", toPath: path)
        return path
    }

    // MARK: Decoding

    /// What one frame costs, per clip: decoded only (a dropped frame: the floor), decoded and
    /// scaled to the card's picture size, and on a card — decoded, scaled and made the card's
    /// face as a playing card's player does it — with the ratio of the last to the first. The
    /// three run in lockstep, one decoder each, a frame of each in turn, so that a busy machine
    /// slows all three alike and their ratio holds within a run.
    func decode(label: String, path: String) throws {
        let info = try VideoProbe.probe(path: path)
        let size = VideoStill.decodeSize(displayWidth: info.displayWidth, displayHeight: info.displayHeight, fit: .cover,
                                         boxWidth: card.width, boxHeight: card.height)
        var item = ItemConfig(id: "bench", title: "Harbour")
        item.video = path
        let faces = VideoFaceComposer(item: item, width: card.width, height: card.height, capacity: 5)
        // On a card, as `CardVideo` opens it: only the card's width of a cropped clip is looked at,
        // and frames are scaled straight into the card's faces where they can be.
        let decoders = try Stage.allCases.map { stage in
            try VideoDecoder(path: path, outputSize: { _ in size }, shownWidth: stage == .onACard ? card.width : nil,
                             target: stage == .onACard ? faces.target(frameWidth:frameHeight:columns:) : nil, hardware: .off)
        }
        var wall = [[Double]](repeating: [], count: Stage.allCases.count), cpu = wall
        frames: while true {
            for (i, stage) in Stage.allCases.enumerated() {
                let d = decoders[i]
                let t0 = MonotonicClock.now(), c0 = Self.threadCPU()
                let more: Bool
                switch stage {
                case .decode: more = try d.skipFrame() != nil
                case .decodeAndScale: more = try d.nextFrame() != nil
                case .onACard:
                    if let frame = try d.nextFrame() { _ = faces.face(showing: frame.texture); more = true } else { more = false }
                }
                guard more else { break frames }
                wall[i].append(MonotonicClock.now() - t0)
                cpu[i].append(Self.threadCPU() - c0)
            }
        }
        guard !wall[0].isEmpty else { throw CommandFailure("\(path): no frames decoded") }
        var means: [Stage: Double] = [:], medians: [Stage: Double] = [:]
        for (i, stage) in Stage.allCases.enumerated() {
            let n = min(wall[i].count, cpu[i].count)
            means[stage] = cpu[i].prefix(n).reduce(0, +) / Double(n)
            let w = wall[i].prefix(n).sorted(), c = cpu[i].prefix(n).sorted()
            medians[stage] = c[n / 2]
            let what = stage == .decodeAndScale ? "decode+scale to \(size.width)×\(size.height)" : stage.rawValue
            print(String(format: "  %@ %@ wall %6.2f ms (p90 %6.2f)   cpu %6.2f ms (p90 %6.2f, mean %6.2f)   %d frames, %@",
                         label.padding(toLength: 34, withPad: " ", startingAt: 0) as NSString,
                         what.padding(toLength: 26, withPad: " ", startingAt: 0) as NSString,
                         w[n / 2] * 1000, w[n * 9 / 10] * 1000, c[n / 2] * 1000, c[n * 9 / 10] * 1000,
                         means[stage]! * 1000, n, decoders[i].decoderName as NSString))
        }
        print(String(format: "  %@ on a card / decode only (mean CPU): %.2f×   (median CPU: %.2f×)",
                     label.padding(toLength: 34, withPad: " ", startingAt: 0) as NSString,
                     means[.onACard]! / max(1e-9, means[.decode]!), medians[.onACard]! / max(1e-9, medians[.decode]!)))
    }

    /// The stages `decode` times a clip's frames at.
    enum Stage: String, CaseIterable {
        case decode = "decode only"
        case decodeAndScale = "decode+scale"
        case onACard = "on a card (face)"
    }

    // MARK: A carousel with a playing card

    /// A cover-flow carousel of `card`-sized cards at `screen`, item 0 the clip (or its poster
    /// only when `play` is false), asynchronous cards and video as in `run`; with the clips it
    /// plays (the caller keeps them while it runs the session).
    func session(clip: String, play: Bool, audio: Bool = false) throws -> (session: CarouselSession, clips: SceneVideo) {
        let dir = NSTemporaryDirectory() + "kiosk-bench-video-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/kiosk.toml"
        var text = """
            [carousel]
            type = "coverflow"
            item_size = [\(card.width), \(card.height)]
            [video]
            start_delay = 0
            play_centred = \(play)
            [[item]]
            title = "Harbour"
            video = "\(clip)"
            audio = \(audio)

            """
        for i in 1..<9 { text += "[[item]]\ntitle = \"Item \(i)\"\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = CarouselSession(config: try ConfigLoader.load(path: path, media: MediaFileCheck.kiosk), width: screen.width,
                                height: screen.height, synchronousCards: false)
        return (s, SceneVideo(session: s))
    }

    /// Runs `s` in real time at its tick rate for `duration` seconds, as the loop does (tick,
    /// take finished cards, draw when needed); returns (frames drawn, mean render ms).
    @discardableResult
    func realTime(_ s: CarouselSession, from start: Double, duration: Double,
                  eachRender: (Double) -> Void = { _ in }) -> (frames: Int, renderMs: Double) {
        let dt = 1 / s.config.carousel.tickHz
        var frames = 0, render = 0.0
        var next = MonotonicClock.now()
        let end = next + duration
        while MonotonicClock.now() < end {
            next += dt
            let pause = next - MonotonicClock.now()
            if pause > 0 { usleep(UInt32(pause * 1e6)) }
            let now = MonotonicClock.now() - start
            s.drainCards(now: now)
            _ = s.tick(now: now)
            if s.needsFrame {
                let t0 = MonotonicClock.now()
                _ = s.renderFrame(now: now)
                render += MonotonicClock.now() - t0
                eachRender(MonotonicClock.now() - t0)
                frames += 1
            }
        }
        return (frames, frames > 0 ? render / Double(frames) * 1000 : 0)
    }

    func playback(clip: String) throws {
        print("bench video: a 720p clip playing on a \(card.width)×\(card.height) card of a \(screen.width)×\(screen.height) cover flow, \(seconds) s real time")
        for play in [false, true] {
            let (s, clips) = try session(clip: clip, play: play)
            defer { withExtendedLifetime(clips) {} }
            let start = MonotonicClock.now()
            // Let the poster and the other faces arrive first.
            realTime(s, from: start, duration: 1.5)
            let c0 = Self.processCPU(), w0 = MonotonicClock.now()
            let r = realTime(s, from: start, duration: seconds)
            let cpu = Self.processCPU() - c0, wall = MonotonicClock.now() - w0
            print(String(format: "  %@ CPU %5.1f %% of one core   %4d frames drawn (%.1f/s), mean render %.2f ms",
                         (play ? "card plays the clip" : "poster only (play_centred = false)").padding(toLength: 36, withPad: " ", startingAt: 0) as NSString,
                         cpu / wall * 100, r.frames, Double(r.frames) / wall, r.renderMs))
        }
    }

    /// The 720p clip with a sound track playing on the card, muted and with its sound: process
    /// CPU and the loop's render times (the sound's threads run beside the loop, as in `run`).
    func soundPlayback(clip: String) throws {
        print("bench video: the 720p clip with a sound track (AAC 44.1 kHz) on the card, muted and with its sound mixed at 48 kHz, \(seconds) s real time")
        for audio in [false, true] {
            let (s, clips) = try session(clip: clip, play: true, audio: audio)
            defer { withExtendedLifetime(clips) {} }
            let start = MonotonicClock.now()
            let clock: @Sendable () -> Double = { MonotonicClock.now() - start }
            let mixer = AudioMixer(volume: 0.8, clock: clock)
            if audio { clips.sound = mixer }
            let pull = BenchSoundPull(mixer: mixer, clock: clock)
            defer { pull.stop() }
            realTime(s, from: start, duration: 1.5)
            let c0 = Self.processCPU(), w0 = MonotonicClock.now()
            var renders: [Double] = []
            let r = realTime(s, from: start, duration: seconds) { renders.append($0) }
            let cpu = Self.processCPU() - c0, wall = MonotonicClock.now() - w0
            renders.sort()
            let n = max(1, renders.count)
            print(String(format: "  %@ CPU %5.1f %% of one core   %4d frames drawn (%.1f/s), render mean %.2f ms, median %.2f ms, p90 %.2f ms",
                         (audio ? "with its sound (audio = true)" : "muted (audio = false)").padding(toLength: 31, withPad: " ", startingAt: 0) as NSString,
                         cpu / wall * 100, r.frames, Double(r.frames) / wall, r.renderMs,
                         (renders.isEmpty ? 0 : renders[n / 2]) * 1000, (renders.isEmpty ? 0 : renders[n * 9 / 10]) * 1000))
        }
        // The sound's own work, measured as CPU time on one thread (a busy machine stretches the
        // wall time, not this): the clip's 10 s decoded, resampled and mixed period by period.
        let mixer = AudioMixer(volume: 0.8)
        let soundtrack = Soundtrack(path: clip, start: 0, sampleRate: AudioFormat.sampleRate, loop: false, synchronous: true,
                                    logger: Logger(label: "bench"))
        mixer.playSoundtrack(soundtrack)
        var buffer = [Int16](repeating: 0, count: BenchSoundPull.periodFrames * AudioFormat.channels)
        let periods = 10 * AudioFormat.sampleRate / BenchSoundPull.periodFrames
        let c0 = Self.threadCPU()
        for k in 0..<periods {
            let t = Double(k * BenchSoundPull.periodFrames) / Double(AudioFormat.sampleRate)
            buffer.withUnsafeMutableBufferPointer { mixer.mix(frames: BenchSoundPull.periodFrames, at: t, into: $0) }
        }
        let cpu = Self.threadCPU() - c0
        print(String(format: "  the sound alone (decode, resample, mix; one thread): %.1f ms CPU for 10 s of sound (%.2f %% of one core)",
                     cpu * 1000, cpu / 10 * 100))
    }

    func drag(clip: String) throws {
        print("bench video: frame time of a drag (\(dragFrames) frames, 8 px each) starting over the centred card")
        var medians: [Double] = []
        for play in [false, true] {
            let (s, clips) = try session(clip: clip, play: play)
            defer { withExtendedLifetime(clips) {} }
            let start = MonotonicClock.now()
            realTime(s, from: start, duration: 2)
            var now = MonotonicClock.now() - start
            let dt = 1 / s.config.carousel.tickHz
            s.apply(.fingerDown(Point2(Double(screen.width) / 2, Double(screen.height) / 2)), now: now)
            s.apply(.dragBegan, now: now)
            var times: [Double] = []
            for _ in 0..<dragFrames {
                now += dt
                let t0 = MonotonicClock.now()
                s.apply(.dragMoved(pixels: -8), now: now)
                s.drainCards(now: now)
                _ = s.tick(now: now)
                _ = s.renderFrame(now: now)
                times.append(MonotonicClock.now() - t0)
            }
            times.sort()
            let n = times.count
            medians.append(times[n / 2])
            print(String(format: "  %@ median %6.2f ms   p90 %6.2f ms   max %6.2f ms",
                         (play ? "over a playing card" : "without video").padding(toLength: 22, withPad: " ", startingAt: 0) as NSString,
                         times[n / 2] * 1000, times[n * 9 / 10] * 1000, times[n - 1] * 1000))
        }
        print(String(format: "  ratio playing / without: %.2f", medians[1] / max(1e-9, medians[0])))
    }

    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func processCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
