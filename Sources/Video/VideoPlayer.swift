import Foundation
import LinuxSystem
import Logging
import RasterCore

/// Plays one clip into a small queue of composed frames for a card (or the full screen).
///
/// Opening and decoding happen on the player's own thread (a file on a slow disk never blocks
/// the caller), which keeps at most `queueDepth` composed frames queued and sleeps on a condition
/// when the queue is full. The caller asks `frame(at:)` with the clip time it is drawing; frames
/// already late are skipped on the thread, never waited for. At the end the player loops
/// (`loop`) or ends; a decode failure mid-way fails it (logged once). In both cases the last good
/// frame stays available.
///
/// Memory: at most `queueDepth + 1` composed textures per player are alive at once (the queue,
/// or the queue less one plus the one being composed, and the current frame), not counting the
/// ones the caller keeps.
///
/// `synchronous` mode has no thread: the decoder opens in `init` and `frame(at:)` decodes on the
/// calling thread up to `time`; the result depends only on the calls made (for `simulate` and
/// tests).
public final class VideoPlayer {
    public struct Options {
        /// Play again from the start at the end; each loop's times continue from the last.
        public var loop = false
        /// Composed frames decoded ahead (at least 1).
        public var queueDepth = 3
        public var hardware = HardwareDecode.auto
        /// The software decoder's threads.
        public var threads = 1
        /// Decode on the caller's thread in `frame(at:)` (deterministic); no player thread.
        public var synchronous = false
        public var limits = VideoLimits()
        public init() {}
    }

    public enum State: Equatable {
        /// Opening the file (before the first frame is queued or the file fails).
        case starting
        case playing
        /// The end of a clip that does not loop; the last frame stays available.
        case ended
        /// The file could not be opened or stopped decoding; the reason names the file. The last
        /// good frame (if any) stays available.
        case failed(String)
    }

    private let core: PlayerCore
    private let compose: (Texture) -> Texture
    private let logger: Logger
    /// Synchronous mode: the decoder and the frame read ahead of the last `frame(at:)`.
    private var playback: Playback?
    private var pending: VideoFrame?

    /// Starts playing `path` scaled to `outputWidth × outputHeight`. `compose` runs on each
    /// scaled frame before it is queued (on the player thread; on the caller's in synchronous
    /// mode, and there only for the frame `frame(at:)` returns) — the caller turns it into a card
    /// face; its result is what `frame(at:)` returns.
    public convenience init(path: String, outputWidth: Int, outputHeight: Int, options: Options = Options(),
                            compose: @escaping (Texture) -> Texture = { $0 }, logger: Logger) {
        precondition(outputWidth > 0 && outputHeight > 0, "video output must have pixels")
        self.init(path: path, outputSize: { _ in (outputWidth, outputHeight) }, options: options, compose: compose,
                  logger: logger)
    }

    /// Starts playing `path` at the size `outputSize` gives for the clip once it is open (on the
    /// player thread: the caller never opens the file), e.g. the size a card draws it at. With
    /// `shownWidth`, `compose` looks only at the middle `shownWidth` columns of each frame (see
    /// `VideoDecoder`). With `target`, frames are scaled straight into the textures it gives (a
    /// card's faces, `FrameTarget`) where they can be; `compose` then gets that texture.
    public init(path: String, outputSize: @escaping (VideoInfo) -> (width: Int, height: Int), shownWidth: Int? = nil,
                options: Options = Options(), target: FrameTarget? = nil, compose: @escaping (Texture) -> Texture = { $0 },
                logger: Logger) {
        core = PlayerCore(queueDepth: max(1, options.queueDepth))
        self.compose = compose
        self.logger = logger
        let open = { [core] () throws -> VideoDecoder in
            try VideoDecoder(path: path, outputSize: outputSize, shownWidth: shownWidth, target: target,
                             hardware: options.hardware, threads: options.threads, limits: options.limits,
                             isCancelled: { core.isStopping })
        }
        if options.synchronous {
            do {
                let decoder = try open()
                core.opened(decoder, logger: logger)
                playback = Playback(decoder: decoder, loop: options.loop)
            } catch {
                core.fail(Self.reason(error, path: path), logger: logger)
            }
            return
        }
        let thread = Thread { [core, compose, logger] in
            PlayerCore.run(core: core, open: open, loop: options.loop, compose: compose, logger: logger)
        }
        thread.name = "video"
        thread.start()
    }

    deinit { stop() }

    /// Readable when a frame was queued or the state changed. Drain it with `drainEvents()` (or
    /// read its 8-byte eventfd counter), then call `frame(at:)` / `state`.
    public var eventFD: Int32 { core.events.fd }

    /// Clears `eventFD`'s readiness; returns how many signals there were.
    @discardableResult
    public func drainEvents() -> UInt64 { core.events.reset() }

    /// The newest frame whose time is `time` (clip time) or earlier: queued frames up to it are
    /// taken off the queue (older ones dropped), and the last one returned stays available until a
    /// newer one is due. Tells the thread `time`, so it skips frames that are already late. Nil
    /// until the first frame is decoded. Synchronous mode: decodes on this thread up to `time`.
    public func frame(at time: Double) -> VideoFrame? {
        if playback != nil { return synchronousFrame(at: time) }
        return core.take(upTo: time)
    }

    /// The time of the earliest frame decoded but not yet returned (when the caller needs to
    /// draw next); nil when none is ready.
    public var nextFrameTime: Double? {
        if playback != nil { return pending?.time }
        return core.withLock { core.queue.first?.time }
    }

    public var state: State { core.withLock { core.state } }

    /// Which decoder runs and why, e.g. `h264 (software; no V4L2 decoder h264_v4l2m2m in this
    /// FFmpeg)`; `not open yet` while starting.
    public var decoderDescription: String { core.withLock { core.decoderDescription } }

    /// Ends the thread promptly (it stops before its next frame, or its next read from the file)
    /// and drops the queue; the last returned frame stays available. Idempotent; `deinit` calls it.
    public func stop() {
        core.requestStop()
        playback = nil
        pending = nil
    }

    // MARK: - For tests

    /// Frames skipped as late, and scaled, by the player so far.
    var skippedFrames: Int { playback?.skipped ?? core.withLock { core.skipped } }
    /// Synchronous mode: what the decoder has read from the file so far.
    var readStatistics: ReadStatistics? { playback?.decoder.readStatistics }
    /// Waits up to `timeout` seconds for the player's thread to finish; true if it has.
    func waitForThreadExit(timeout: Double) -> Bool { core.waitForExit(timeout: timeout) }
    /// Waits up to `timeout` seconds until the thread sleeps with a full queue or has finished.
    func waitUntilIdle(timeout: Double) -> Bool { core.waitUntilIdle(timeout: timeout) }

    // MARK: - Synchronous mode

    private func synchronousFrame(at time: Double) -> VideoFrame? {
        guard let playback else { return core.withLock { core.current } }
        var newest: VideoFrame?
        do {
            while true {
                if let frame = pending {
                    guard frame.time <= time + Playback.timeSlack else { break }
                    newest = frame
                    pending = nil
                }
                guard let frame = try playback.next(lateBefore: time) else {
                    core.setState(.ended)
                    self.playback = nil
                    break
                }
                pending = frame
            }
        } catch {
            core.fail(Self.reason(error, path: playback.decoder.info.path), logger: logger)
            self.playback = nil
            pending = nil
        }
        if let newest {
            let composed = VideoFrame(texture: compose(newest.texture), time: newest.time, duration: newest.duration)
            core.withLock { core.current = composed }
            core.events.signal()
        }
        return core.withLock { core.current }
    }

    static func reason(_ error: Error, path: String) -> String {
        (error as? VideoError)?.description ?? "\(path): \(error)"
    }
}

/// What a player and its thread share, under one condition lock.
final class PlayerCore: @unchecked Sendable {
    let condition = NSCondition()
    let events: EventFD
    let queueDepth: Int
    var queue: [VideoFrame] = []
    var current: VideoFrame?
    var state: VideoPlayer.State = .starting
    var decoderDescription = "not open yet"
    /// The clip time last asked for, for skipping late frames.
    var requestedTime: Double?
    var stopRequested = false
    var threadFinished = false
    var threadWaiting = false
    var skipped = 0

    init(queueDepth: Int) {
        self.queueDepth = queueDepth
        // An eventfd only fails when the process is out of descriptors; nothing can play then.
        events = try! EventFD()
    }

    func withLock<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    var isStopping: Bool { withLock { stopRequested } }

    func requestStop() {
        withLock {
            stopRequested = true
            queue.removeAll()
            condition.broadcast()
        }
    }

    func setState(_ new: VideoPlayer.State) {
        withLock { state = new }
        events.signal()
    }

    func opened(_ decoder: VideoDecoder, logger: Logger) {
        let description = Self.describe(decoder)
        let info = decoder.info
        logger.info("video \(info.path): \(info.width)×\(info.height) \(info.codec) in \(info.container) at \(String(format: "%.3g", info.frameRate)) fps; decoder \(description)")
        withLock {
            decoderDescription = description
            if state == .starting { state = .playing }
        }
        events.signal()
    }

    /// Logs the failure (once: a player fails at most once) and keeps the last good frame.
    func fail(_ reason: String, logger: Logger) {
        let first: Bool = withLock {
            if case .failed = state { return false }
            state = .failed(reason)
            return true
        }
        guard first else { return }
        logger.error("video stopped: \(reason)")
        events.signal()
    }

    static func describe(_ decoder: VideoDecoder) -> String {
        if decoder.isHardware { return "\(decoder.decoderName) (hardware, V4L2 memory-to-memory)" }
        return "\(decoder.decoderName) (software; \(decoder.fallbackReason ?? "hardware decode off"))"
    }

    /// Threaded mode's `frame(at:)`.
    func take(upTo time: Double) -> VideoFrame? {
        withLock {
            requestedTime = time
            var newest: VideoFrame?
            while let first = queue.first, first.time <= time + Playback.timeSlack { newest = queue.removeFirst() }
            if let newest {
                current = newest
                condition.broadcast()
            }
            return current
        }
    }

    // MARK: - The thread

    static func run(core: PlayerCore, open: () throws -> VideoDecoder, loop: Bool,
                    compose: (Texture) -> Texture, logger: Logger) {
        defer {
            core.withLock {
                core.threadFinished = true
                core.condition.broadcast()
            }
        }
        let decoder: VideoDecoder
        do { decoder = try open() } catch {
            if !core.isStopping { core.fail(VideoPlayer.reason(error, path: "video"), logger: logger) }
            return
        }
        core.opened(decoder, logger: logger)
        let playback = Playback(decoder: decoder, loop: loop)
        while true {
            // Wait for room in the queue: at most queueDepth composed frames queued or in hand.
            let target: Double? = core.withLock {
                while core.queue.count >= core.queueDepth && !core.stopRequested {
                    core.threadWaiting = true
                    core.condition.broadcast()
                    core.condition.wait()
                }
                core.threadWaiting = false
                return core.stopRequested ? nil : (core.requestedTime ?? -Double.infinity)
            }
            guard let target else { return }
            let next: VideoFrame?
            do {
                next = try playback.next(lateBefore: target.isFinite ? target : nil)
            } catch {
                if !core.isStopping { core.fail(VideoPlayer.reason(error, path: decoder.info.path), logger: logger) }
                return
            }
            guard let frame = next else {
                core.withLock { core.skipped = playback.skipped }
                core.setState(.ended)
                return
            }
            let face = VideoFrame(texture: compose(frame.texture), time: frame.time, duration: frame.duration)
            let queued: Bool = core.withLock {
                core.skipped = playback.skipped
                guard !core.stopRequested else { return false }
                core.queue.append(face)
                return true
            }
            guard queued else { return }
            core.events.signal()
        }
    }

    func waitForExit(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return withLock {
            while !threadFinished { if !condition.wait(until: deadline) { return threadFinished } }
            return true
        }
    }

    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return withLock {
            while !(threadFinished || (threadWaiting && queue.count >= queueDepth)) {
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }
}
