import Foundation
import Logging
import LinuxSystem

/// A clip's sound, playing against the session's clock: frames are asked for by the session
/// time they will be heard at, and the clip time is that time less `start` — the same clock the
/// clip's `VideoPlayer` is asked for frames with (`frame(at: now - start)`). So the video clock
/// is the master and the sound follows it: while the sound read so far is within `tolerance` of
/// the clock it is played on without a break, and when it drifts further (a device clock a little
/// fast or slow, a late decode, a loop whose sound is shorter than its pictures) the sound skips
/// ahead or waits with silence to the clock's time.
///
/// Decoding (`AudioDecoder`) runs on a thread of its own, about half a second ahead of the time
/// last asked for, sleeping on a condition in between. When it is further behind the clock than
/// `resyncAfter` (a slow start: the decoder's own open, a starved machine), it seeks to just
/// ahead of the clock instead of decoding its way there: decoding through would drop everything
/// it made until it caught up, and a decoder that is not much faster than the clock would never
/// catch up — a clip played silent throughout. The seek lands `resyncLead` ahead of the clock, or
/// further when a seek and its first chunk took longer than that (1.5 times what the last one
/// took, up to `maxResyncLead`): on a machine so starved that the decoder is slower than the clock,
/// a fixed lead had every seek's sound land behind the clock and be dropped — the clip silent
/// throughout, seeking every half second (a VM at five times its quiet speed); it now plays in
/// stretches between the seeks. `synchronous` decodes on the caller's
/// thread as needed (`simulate`: the same calls give the same samples). `stop()` ends it; the
/// thread holds the soundtrack until then (or until the sound ends), as a player's thread does.
public final class Soundtrack: @unchecked Sendable {
    /// How far the sound may drift from the clock before it is moved back to it.
    public static let tolerance = 0.02
    /// Seconds decoded ahead of the time last asked for.
    static let readAhead = 0.5
    /// How far behind the clock the decoding may fall before it seeks ahead to it.
    static let resyncAfter = 0.25
    /// Where such a seek lands: this much ahead of the clock, for the first chunk to be decoded
    /// before it is heard — at least; more when seeks have been slower (`landingLead`).
    static let resyncLead = 0.15
    /// The furthest ahead of the clock a seek lands, however slow the last one was.
    static let maxResyncLead = 2.0

    /// The session time of the clip's time 0.
    public let start: Double
    public let path: String
    public let sampleRate: Int
    private let loop: Bool
    private let synchronous: Bool
    private let clock: (@Sendable () -> Double)?
    private let logger: Logger
    /// For tests: runs before each call into the decoder (a seek, a chunk), to play a starved
    /// machine whose decoder is slower than the clock.
    private let stall: (@Sendable () -> Void)?
    private let condition = NSCondition()
    /// Decoded, unread frames (interleaved stereo) from `bufferTime` (clip time) on.
    private var samples: [Int16] = []
    private var readIndex = 0
    private var bufferTime = 0.0
    /// The clip time last asked for.
    private var requested = 0.0
    private var stopped = false
    private var finished = false
    private var decoder: AudioDecoder?
    private var loopOffset = 0.0
    private var passEnd = 0.0
    private var passChunks = 0
    /// Chunks decoded, and seeks ahead to the clock (for tests and the log).
    private var decodedChunks = 0, resyncs = 0
    /// The chunks decoded when the last seek ahead was made: the next one waits for one more, so
    /// a seek slower than `resyncAfter` cannot follow another for ever without a sound between.
    private var chunksAtResync = -1
    /// How far ahead of the clock the next seek lands: `resyncLead`, or 1.5 times the clip time
    /// the last seek took until its first chunk was decoded, up to `maxResyncLead`.
    private var landingLead = Soundtrack.resyncLead
    /// The clip time on the clock when the last seek began; nil once its first chunk is in.
    private var resyncBegan: Double?
    /// For the log: the furthest ahead a seek had to land.
    private var mostLead = Soundtrack.resyncLead
    /// The clip time after the last chunk decoded (on the buffer's timeline): where the decoder
    /// is. Not `bufferEnd`, which the output moves ahead when it finds nothing to play.
    private var decodedEnd = 0.0
    /// Frames asked for by the output since the clip's start, and those of them that had sound.
    private var askedFrames = 0, heardFrames = 0
    /// For the log: how the decoder's open went, and the furthest it was behind at a seek.
    private var opened = "", mostBehind = 0.0

    /// Plays `path`'s sound as if from session time `start` on, converted to `sampleRate` stereo.
    ///
    /// `clock` (the session clock, threaded mode) keeps the decoding up with the clip's time even
    /// while nothing asks for sound (an output still opening its device, or failing): what falls
    /// behind the clock is dropped as it is decoded, so a late output finds the sound of the
    /// moment ready, and memory stays bounded.
    public convenience init(path: String, start: Double, sampleRate: Int, loop: Bool, synchronous: Bool,
                            clock: (@Sendable () -> Double)? = nil, logger: Logger) {
        self.init(path: path, start: start, sampleRate: sampleRate, loop: loop, synchronous: synchronous,
                  clock: clock, logger: logger, stall: nil)
    }

    /// The same, with `stall` run before each call into the decoder (tests: a starved machine).
    init(path: String, start: Double, sampleRate: Int, loop: Bool, synchronous: Bool,
         clock: (@Sendable () -> Double)?, logger: Logger, stall: (@Sendable () -> Void)?) {
        self.stall = stall
        self.clock = synchronous ? nil : clock
        self.path = path
        self.start = start
        self.sampleRate = sampleRate
        self.loop = loop
        self.synchronous = synchronous
        self.logger = logger
        if synchronous {
            open()
            return
        }
        let thread = Thread { [self] in
            open()
            decodeAhead()
        }
        thread.name = "soundtrack"
        thread.start()
    }

    deinit { stop() }

    /// Stops decoding (the thread ends) and makes the sound silent from now on. The first stop
    /// of a sound that was asked for logs, in one line, how it went (why a clip was quiet): the
    /// decoder's open, the seconds heard of those asked for, the seeks ahead to the clock.
    public func stop() {
        condition.lock()
        let first = !stopped
        stopped = true
        samples = []
        readIndex = 0
        condition.broadcast()
        let heard = Double(heardFrames) / Double(sampleRate), asked = Double(askedFrames) / Double(sampleRate)
        var seeks = resyncs == 0 ? "no seek ahead" : String(format: "%d seek(s) ahead to the clock (at most %.2f s behind", resyncs, mostBehind)
        if resyncs > 0 { seeks += mostLead > Self.resyncLead ? String(format: "; landing up to %.2f s ahead, seeks being slow)", mostLead) : ")" }
        let openedText = opened
        condition.unlock()
        if first && askedFrames > 0 && !synchronous {
            logger.info("video \(path): sound: \(openedText)\(String(format: "%.1f", heard)) s heard of the \(String(format: "%.1f", asked)) s asked for, \(seeks)")
        }
    }

    /// True once the sound ended (no loop) or failed, or was stopped.
    public var isFinished: Bool { condition.lock(); defer { condition.unlock() }; return finished || stopped }

    /// Adds (at unit gain) `frames` stereo frames heard from session time `time` on to `buffer`
    /// (interleaved floats): the clip's sound at clip time `time - start`, silence before the
    /// clip's start, where nothing is decoded yet and after its end.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int, at time: Double) {
        let clipTime = time - start
        if synchronous { fill(until: clipTime + Double(frames) / Double(sampleRate)) }
        condition.lock()
        defer { condition.unlock() }
        requested = clipTime
        condition.broadcast()
        guard !stopped else { return }
        if clipTime >= 0 { askedFrames += frames }
        var offset = Int(((clipTime - bufferTime) * Double(sampleRate)).rounded())
        if abs(offset) <= Int(Self.tolerance * Double(sampleRate)) { offset = 0 }
        var available = (samples.count - readIndex) / 2
        if offset > 0 {
            // Behind the clock: skip ahead.
            let skip = min(offset, available)
            consume(skip)
            available -= skip
            if skip < offset { bufferTime += Double(offset - skip) / Double(sampleRate) }
            offset = 0
        }
        let silence = min(frames, -offset)   // ahead of the clock: wait with silence
        let count = min(frames - silence, available)
        guard count > 0 else { return }
        heardFrames += count
        let scale: Float = 1 / 32768, from = readIndex, to = silence * 2
        samples.withUnsafeBufferPointer { decoded in
            for i in 0..<(count * 2) { buffer[to + i] += Float(decoded[from + i]) * scale }
        }
        consume(count)
    }

    /// For tests: the clip times the decoded, unread sound spans.
    var decodedSpan: (from: Double, to: Double) {
        condition.lock(); defer { condition.unlock() }; return (bufferTime, bufferEnd)
    }

    /// For tests: chunks decoded so far and seeks ahead to the clock.
    var decodingCounts: (chunks: Int, resyncs: Int) {
        condition.lock(); defer { condition.unlock() }; return (decodedChunks, resyncs)
    }

    /// For tests: the frames the output asked for since the clip's start, and those with sound.
    var heardCounts: (asked: Int, heard: Int) {
        condition.lock(); defer { condition.unlock() }; return (askedFrames, heardFrames)
    }

    /// For tests: how far ahead of the clock the next seek lands.
    var nextLandingLead: Double { condition.lock(); defer { condition.unlock() }; return landingLead }

    // MARK: Decoding

    private func open() {
        let opening = MonotonicClock.now()
        do {
            decoder = try AudioDecoder(path: path, sampleRate: sampleRate, isCancelled: { [weak self] in
                self?.isStopped ?? true
            })
            let clipTime = clock.map { String(format: " (clip time %.2f s)", $0() - start) } ?? ""
            let text = "\(decoder?.decoderName ?? "") decoder opened in \(Int((MonotonicClock.now() - opening) * 1000)) ms\(clipTime); "
            condition.lock(); opened = text; condition.unlock()
        } catch {
            if !isStopped { logger.warning("video \(path): \(String(describing: (error as? VideoError)?.reason ?? "\(error)")); no sound") }
            markFinished()
        }
    }

    private var isStopped: Bool { condition.lock(); defer { condition.unlock() }; return stopped }

    private func markFinished() {
        condition.lock(); finished = true; condition.broadcast(); condition.unlock()
    }

    /// The thread: keeps `readAhead` seconds decoded past the time last asked for (or the clock's
    /// time, when later), and drops what the clock has passed.
    private func decodeAhead() {
        while true {
            condition.lock()
            while !stopped && !finished && bufferEnd >= clipNow + Self.readAhead {
                if clock == nil { condition.wait() } else { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1)) }
            }
            let done = stopped || finished
            dropPassed()
            let behind = clock == nil ? nil : resyncTarget()
            condition.unlock()
            if done { decoder = nil; return }
            if let behind { resync(to: behind) } else { decodeOne() }
        }
    }

    /// The pass's clip time to seek to when the decoding is more than `resyncAfter` behind the
    /// clock (under the lock); nil when it is not, or the clock is past this pass's end (a loop
    /// then goes on to the next pass by decoding).
    private func resyncTarget() -> Double? {
        let now = clipNow
        guard now - decodedEnd > Self.resyncAfter, decoder != nil, decodedChunks > chunksAtResync else { return nil }
        let target = now + landingLead - loopOffset
        if let duration = decoder?.duration, target >= duration - landingLead { return nil }
        return target > 0 ? target : nil
    }

    /// Seeks the decoder to `target` (this pass's clip time) and drops what was decoded: what
    /// comes next is appended from there. The clock's time now is kept, for `append` to measure
    /// how long the seek took until its first chunk.
    private func resync(to target: Double) {
        guard let decoder else { return }
        condition.lock(); resyncBegan = clipNow; let lead = landingLead; condition.unlock()
        stall?()
        do {
            try decoder.seek(to: target)
        } catch {
            soundStopped(by: error)
            return
        }
        condition.lock()
        let behind = clipNow - decodedEnd
        samples.removeAll(keepingCapacity: true)
        readIndex = 0
        bufferTime = loopOffset + target - lead
        decodedEnd = loopOffset + target
        resyncs += 1
        chunksAtResync = decodedChunks
        mostBehind = max(mostBehind, behind)
        condition.unlock()
    }

    /// The clip time the sound is needed at (under the lock): the time last asked for, or the
    /// clock's when later.
    private var clipNow: Double { max(requested, clock.map { $0() - start } ?? requested) }

    /// Drops decoded frames the clock has passed by more than `tolerance` (under the lock).
    private func dropPassed() {
        guard let clock else { return }
        let passed = Int(((clock() - start - Self.tolerance - bufferTime) * Double(sampleRate)).rounded(.down))
        if passed > 0 { consume(min(passed, (samples.count - readIndex) / 2)) }
    }

    /// Synchronous mode: decodes until the sound reaches clip time `time`.
    private func fill(until time: Double) {
        while true {
            condition.lock()
            let enough = stopped || finished || bufferEnd >= time
            condition.unlock()
            if enough { return }
            decodeOne()
        }
    }

    /// The clip time after the last decoded frame.
    private var bufferEnd: Double { bufferTime + Double((samples.count - readIndex) / 2) / Double(sampleRate) }

    /// Decodes one chunk (or loops, or ends) and appends it.
    private func decodeOne() {
        guard let decoder else { markFinished(); return }
        stall?()
        do {
            if let chunk = try decoder.nextChunk() {
                passChunks += 1
                passEnd = max(passEnd, chunk.time + Double(chunk.frames) / Double(sampleRate))
                append(chunk, at: loopOffset + chunk.time)
                return
            }
            guard loop, passChunks > 0 else { markFinished(); return }
            loopOffset += max(decoder.duration ?? 0, passEnd)
            passEnd = 0
            passChunks = 0
            try decoder.rewind()
        } catch {
            soundStopped(by: error)
        }
    }

    /// A read, decode or seek failed: the sound ends here (one warning, unless it was stopped).
    private func soundStopped(by error: Error) {
        if !isStopped { logger.warning("video \(path): sound stopped: \((error as? VideoError)?.reason ?? "\(error)")") }
        markFinished()
    }

    /// Appends `chunk` at clip time `time`, on the buffer's timeline: a gap is filled with
    /// silence, an overlap dropped from the chunk's start. Counts it, and moves `decodedEnd`.
    /// The first chunk after a seek sets where the next seek lands: 1.5 times the clip time this
    /// one took (at least `resyncLead`, at most `maxResyncLead`).
    private func append(_ chunk: AudioChunk, at time: Double) {
        condition.lock()
        defer { condition.unlock() }
        if let began = resyncBegan {
            resyncBegan = nil
            landingLead = min(Self.maxResyncLead, max(Self.resyncLead, 1.5 * (clipNow - began)))
            mostLead = max(mostLead, landingLead)
        }
        decodedChunks += 1
        decodedEnd = time + Double(chunk.frames) / Double(sampleRate)
        guard !stopped else { return }
        if readIndex == samples.count {
            samples.removeAll(keepingCapacity: true)
            readIndex = 0
        }
        let gap = Int(((time - bufferEnd) * Double(sampleRate)).rounded())
        if gap > 0 {
            samples += [Int16](repeating: 0, count: gap * 2)
            samples += chunk.samples
        } else if -gap < chunk.frames {
            samples += chunk.samples[(-gap * 2)...]
        }
    }

    private func consume(_ frames: Int) {
        readIndex += frames * 2
        bufferTime += Double(frames) / Double(sampleRate)
        if readIndex > 96_000 && readIndex * 2 > samples.count {
            samples.removeFirst(readIndex)
            readIndex = 0
        }
    }
}
