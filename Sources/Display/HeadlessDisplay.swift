import LinuxSystem
import Raster

/// A display with no screen: an `Output` around a `HeadlessBackend`.
///
/// With a render scale below 1 the frames are smaller than the screen and enlarged into it by
/// the same copy the real displays use (`ScanoutCopier`), so a PNG shows what a panel would.
public typealias HeadlessDisplay = Output<HeadlessBackend>

extension Output where Backend == HeadlessBackend {
    /// A `width` × `height` headless display.
    /// - Parameters:
    ///   - paced: cap frames at `refreshRate` by `clock` (the real loop); false for virtual time
    ///     (`simulate`, PNG shots).
    ///   - clock: monotonic seconds; `CLOCK_MONOTONIC` unless a test brings its own.
    public convenience init(width: Int, height: Int, refreshRate: Double = 60, paced: Bool = false, renderScale: Double = 1,
                            clock: @escaping () -> Double = MonotonicClock.now) {
        self.init(backend: HeadlessBackend(width: width, height: height, refreshRate: refreshRate, paced: paced),
                  renderScale: renderScale, clock: clock)
    }

    /// What the screen shows now.
    public var screen: Canvas { backend.screen }
    /// True when frames are capped at `refreshRate` by the clock.
    public var paced: Bool { backend.paced }
    /// Frames presented so far.
    public var presentedFrames: Int { stats.framesPresented }
    /// Pixels copied into the screen by the last `present` (0 when nothing changed).
    public var lastCopiedPixels: Int { stats.lastCopiedPixels }

    /// Writes what the screen shows as a PNG file (atomically; a failure names `path`).
    public func writePNG(to path: String) throws(FileWriteError) { try PNGEncoder.write(screen, to: path) }
}
