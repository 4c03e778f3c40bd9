/// The decoding side of a `VideoPlayer`: frames in order from a `VideoDecoder`, frames already
/// late skipped (decoded, neither scaled nor converted), and looping (rewind, with each loop's
/// times moved on by the clip's length so they keep increasing). Owned by one thread at a time:
/// the player's thread, or the caller's in synchronous mode.
final class Playback {
    let decoder: VideoDecoder
    let loop: Bool
    /// Added to the clip's times: k × the clip's length in loop k.
    private(set) var loopOffset = 0.0
    /// Frames decoded (shown or skipped) in this pass through the clip.
    private var passFrames = 0
    /// The end (time + duration) of the last frame decoded in this pass, in clip time.
    private var passEnd = 0.0
    /// Frames skipped because they were late, and frames scaled, since the start.
    private(set) var skipped = 0, scaled = 0

    /// Times are sums of doubles (3.0 + 0.2 is not 3.2): a frame within a microsecond of a time
    /// counts as at that time.
    static let timeSlack = 1e-6

    init(decoder: VideoDecoder, loop: Bool) {
        self.decoder = decoder
        self.loop = loop
    }

    /// The next frame to show (scaled, not yet composed), in player time; nil at the end when not
    /// looping. Frames that would end by `lateBefore` (player time) are skipped unscaled — judged
    /// by the time the next frame is expected at, so the frame showing at `lateBefore` is never
    /// skipped. The first frame of each pass is always decoded in full.
    func next(lateBefore target: Double?) throws -> VideoFrame? {
        while true {
            if let target, let predicted = decoder.predictedNextTime,
               loopOffset + predicted + decoder.expectedFrameDuration <= target + Self.timeSlack {
                if let time = try decoder.skipFrame() {
                    skipped += 1
                    passFrames += 1
                    passEnd = max(passEnd, time + decoder.expectedFrameDuration)
                    continue
                }
                if try startNextLoop() { continue }
                return nil
            }
            if let frame = try decoder.nextFrame() {
                scaled += 1
                passFrames += 1
                passEnd = max(passEnd, frame.time + frame.duration)
                return VideoFrame(texture: frame.texture, time: loopOffset + frame.time, duration: frame.duration)
            }
            if try startNextLoop() { continue }
            return nil
        }
    }

    /// At the end of a pass: rewinds for the next loop (true), or says the clip is over. A pass
    /// without a frame ends it even when looping (an empty clip would loop for ever). The loop
    /// length is the container's duration or, when longer or unknown, the last frame's end.
    private func startNextLoop() throws -> Bool {
        guard loop, passFrames > 0 else { return false }
        loopOffset += max(decoder.info.duration ?? 0, passEnd)
        try decoder.rewind()
        passFrames = 0
        passEnd = 0
        return true
    }
}
