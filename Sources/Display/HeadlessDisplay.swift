#if canImport(Glibc)
import Glibc
#endif
import CarouselCore
import LinuxSystem
import Raster

/// A display with no screen: keeps the last presented frame in memory so it can be written as
/// PNG. `simulate`, tests and machines without a usable GPU device use it.
///
/// Paced (`run`, and the loop tests): like a screen, it takes at most one frame per refresh
/// period of the monotonic clock (`RefreshCap`), so a loop with a headless display draws no
/// faster than with a real one. Unpaced (`simulate`, which runs on a virtual clock): every
/// `present` is shown at once.
///
/// With a render scale below 1 the frames are smaller than the screen and enlarged into it by
/// the same copy the real displays use (`ScanoutCopier`), so a PNG shows what a panel would.
public final class HeadlessDisplay: DisplayBackend {
    public var size: (width: Int, height: Int) {
        RenderScale.sceneSize(width: fullSize.width, height: fullSize.height, scale: renderScale)
    }
    public let fullSize: (width: Int, height: Int)
    public private(set) var renderScale: Double
    private let copier = ScanoutCopier()
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
    public init(width: Int, height: Int, refreshRate: Double = 60, paced: Bool = false, renderScale: Double = 1) {
        fullSize = (width, height)
        self.renderScale = RenderScale.clamp(renderScale)
        self.refreshRate = refreshRate
        self.paced = paced
        cap = RefreshCap(refreshRate: refreshRate)
        screen = Canvas(width: width, height: height)
    }

    public func setRenderScale(_ scale: Double) -> Bool {
        let old = size
        renderScale = RenderScale.clamp(scale)
        return size != old
    }

    public func present(_ frame: Canvas, damage: [PixelRect]) throws {
        var copied = 0
        if (frame.width, frame.height) != fullSize {
            let buffer = ScanoutBuffer(base: UnsafeMutableRawPointer(screen.pixels), pitch: screen.stride * 4,
                                       width: screen.width, height: screen.height, format: .xrgb8888)
            for r in damage { copied += copier.copy(r, from: frame, to: buffer, rotation: .none) }
        } else {
            for r in damage {
            let c = r.intersection(screen.bounds)
            screen.copy(from: frame, x: c.x, y: c.y, width: c.width, height: c.height)
            copied += c.area
            }
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

    /// Writes what the screen shows as a PNG file (atomically; a failure names `path`).
    public func writePNG(to path: String) throws(FileWriteError) { try PNGEncoder.write(screen, to: path) }

    private static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
