import CarouselCore
import Raster

/// A display with no screen: keeps the last presented frame in memory so it can be written as
/// PNG. `simulate`, tests and machines without a usable GPU device use it.
public final class HeadlessDisplay: DisplayBackend {
    public let size: (width: Int, height: Int)
    public let refreshRate: Double
    public var pollDescriptors: [Int32] { [] }
    public var canPresent: Bool { !released }
    /// What the screen shows now.
    public let screen: Canvas
    /// Frames presented so far.
    public private(set) var presentedFrames = 0
    /// Pixels copied into the screen by the last `present` (0 when nothing changed).
    public private(set) var lastCopiedPixels = 0
    private var released = false

    public init(width: Int, height: Int, refreshRate: Double = 60) {
        size = (width, height)
        self.refreshRate = refreshRate
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
    }

    public func handleReadable(_ fd: Int32) -> Bool { false }
    public func release() { released = true }
    public func reacquire() { released = false }
    public func close() {}

    /// Writes what the screen shows as a PNG file.
    public func writePNG(to path: String) throws { try PNGEncoder.write(screen, to: path) }
}
