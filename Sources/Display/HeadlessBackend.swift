import CarouselCore
import Raster

/// A screen in memory: one slot, a `Canvas` that keeps the last presented frame so it can be
/// written as PNG (`HeadlessDisplay.writePNG`). `simulate`, tests and machines without a usable
/// GPU device use it.
///
/// Paced (`run`, and the loop tests): like a screen, it takes at most one frame per refresh
/// period of its output's clock (`OutputPacing.clock`), so a loop with a headless display draws
/// no faster than with a real one. Unpaced (`simulate`, which runs on a virtual clock): every
/// `present` is shown at once.
public final class HeadlessBackend: OutputBackend {
    /// What the screen shows now.
    public let screen: Canvas
    public let refreshRate: Double
    /// True when frames are capped at `refreshRate` by the output's clock.
    public let paced: Bool
    private var released = false

    /// A `width` × `height` screen, black.
    public init(width: Int, height: Int, refreshRate: Double = 60, paced: Bool = false) {
        screen = Canvas(width: width, height: height)
        self.refreshRate = refreshRate
        self.paced = paced
    }

    public var screenSize: (width: Int, height: Int) { (screen.width, screen.height) }
    public var rotation: DisplayRotation { .none }
    public var slotCount: Int { 1 }
    public var isShowing: Bool { !released }
    public var isIdle: Bool { true }
    public var pacing: OutputPacing { paced ? .clock : .unpaced }

    public func acquireSlot() -> (index: Int, buffer: ScanoutBuffer)? {
        (0, ScanoutBuffer(base: UnsafeMutableRawPointer(screen.pixels), pitch: screen.stride * 4,
                          width: screen.width, height: screen.height, format: .xrgb8888))
    }

    public func commit(slot index: Int, sequence: UInt64, at now: Double) -> CommitOutcome { .shown(crtcID: 0) }

    public func release() { released = true }
    public func reacquire() { released = false }
    public func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        .unsupported(reason: "HeadlessDisplay has no screen power control")
    }
    public var health: DisplayHealth { screen.width > 0 && screen.height > 0 ? .showing : .notShowing }
    public func close() {}
}
