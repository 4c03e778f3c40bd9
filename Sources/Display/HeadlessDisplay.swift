#if canImport(Glibc)
import Glibc
#endif
import CarouselCore
import Raster

/// A display with no screen: keeps the last presented frame in memory so it can be written as
/// PNG. `simulate`, tests and machines without a usable GPU device use it.
///
/// Paced (`run`, and the loop tests): like a screen, it takes at most one frame per refresh
/// period of the monotonic clock (`RefreshCap`), so a loop with a headless display draws no
/// faster than with a real one. Unpaced (`simulate`, which runs on a virtual clock): every
/// `present` is shown at once.
public final class HeadlessDisplay: DisplayBackend {
    public let size: (width: Int, height: Int)
    public let refreshRate: Double
    public var pollDescriptors: [Int32] { [] }
    public var canPresent: Bool { !released && (!paced || cap.allows(Self.monotonicNow())) }
    public var nextWakeTime: Double? { !released && paced ? cap.wakeTime(after: Self.monotonicNow()) : nil }
    public private(set) var frameSequence: UInt64 = 0
    public var onFrameShown: ((FrameShown) -> Void)?
    /// What the screen shows now.
    public let screen: Canvas
    /// Frames presented so far.
    public private(set) var presentedFrames = 0
    /// Pixels copied into the screen by the last `present` (0 when nothing changed).
    public private(set) var lastCopiedPixels = 0
    /// True when frames are capped at `refreshRate` by the monotonic clock.
    public let paced: Bool
    private var released = false
    private var cap: RefreshCap

    /// - Parameter paced: cap frames at `refreshRate` by the monotonic clock (the real loop);
    ///   false for virtual time (`simulate`, PNG shots).
    public init(width: Int, height: Int, refreshRate: Double = 60, paced: Bool = false) {
        size = (width, height)
        self.refreshRate = refreshRate
        self.paced = paced
        cap = RefreshCap(refreshRate: refreshRate)
        screen = Canvas(width: width, height: height)
    }

    public func present(_ frame: Canvas, damage: [PixelRect]) throws {
        var copied = 0
        for r in damage {
            let c = r.intersection(screen.bounds)
            screen.copy(from: frame, x: c.x, y: c.y, width: c.width, height: c.height)
            copied += c.area
        }
        lastCopiedPixels = copied
        presentedFrames += 1
        frameSequence += 1
        let now = Self.monotonicNow()
        if paced { cap.presented(at: now) }
        onFrameShown?(FrameShown(sequence: frameSequence, time: now, timing: .submitted))
    }

    public func handleReadable(_ fd: Int32) -> Bool { false }
    public func release() { released = true }
    public func reacquire() { released = false }
    public func close() {}

    /// Writes what the screen shows as a PNG file.
    public func writePNG(to path: String) throws { try PNGEncoder.write(screen, to: path) }

    private static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
