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

    public init() {}

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
}
