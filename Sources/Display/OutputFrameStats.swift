/// The figures of an `Output`'s frames, for `display-test`, `state` and tests.
public struct OutputFrameStats: Equatable, Sendable {
    /// Frames sent to the screen: shown at once (mode sets, pans, writes) or queued (page flips).
    public var framesPresented = 0
    /// Queued frames whose completion the backend reported (page flips completed or given up on).
    public var completions = 0
    /// Pixels copied into slots, in all.
    public var pixelsCopied = 0
    /// Pixels copied by the last `present` that reached the copy (0 when nothing changed).
    public var lastCopiedPixels = 0
    /// Monotonic time of the first frame on screen.
    public var firstFrameTime: Double?
    /// Queued frames shown more than `missedAfter` refreshes after they were queued, or never
    /// (`DisplayBackend.flipsMissed`).
    public var flipsMissed = 0
    /// When the frame in flight was queued (monotonic); nil: none in flight.
    var queuedAt: Double?

    /// Refresh periods a queued frame may take before it counts as missed: it is due at the next
    /// vblank, at most one period away; the quarter is for the timestamps' jitter.
    public static let missedAfter = 1.25

    public init() {}

    /// Counts the completion of the frame queued at `queuedAt`: missed when it timed out or came
    /// later than `missedAfter` periods of `refreshRate`.
    mutating func completed(_ shown: FrameShown, refreshRate: Double) {
        defer { queuedAt = nil }
        if shown.timing == .timedOut { flipsMissed += 1; return }
        guard let queued = queuedAt, refreshRate > 0 else { return }
        if shown.time - queued > Self.missedAfter / refreshRate { flipsMissed += 1 }
    }

    /// Counts one present's copy.
    mutating func copied(_ pixels: Int) {
        pixelsCopied += pixels
        lastCopiedPixels = pixels
    }
}

extension Output {
    /// Frames sent to the screen (`stats.framesPresented`).
    public var framesPresented: Int { stats.framesPresented }
    /// Pixels copied into the backend's slots (`stats.pixelsCopied`).
    public var pixelsCopied: Int { stats.pixelsCopied }
    /// Monotonic time of the first frame on screen (`stats.firstFrameTime`).
    public var firstFrameTime: Double? { stats.firstFrameTime }
    /// Queued frames shown late or never (`stats.flipsMissed`).
    public var flipsMissed: Int { stats.flipsMissed }
}
