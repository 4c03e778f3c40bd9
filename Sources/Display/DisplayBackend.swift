import CarouselCore
import Raster

/// The screen, whatever drives it: DRM/KMS, the Linux framebuffer, or PNG files.
///
/// The loop draws a frame into its own cached-memory `Canvas` of `size`, then calls
/// `present(_:damage:)`; the backend copies the damaged rectangles (rotated if configured) into
/// its buffer and shows it. Backends that complete asynchronously (page flips) report
/// readiness through `pollDescriptors` and `handleReadable()`.
///
/// The loop's contract, in order of a wake-up:
/// 1. an fd of `pollDescriptors` is readable → `handleReadable(fd)`; `true` means the size
///    changed (hotplug, new mode): lay the scene out again in the new `size` and draw in full;
/// 2. the time `nextWakeTime` has come → `handleWake()` (frame-rate cap over, master retry);
/// 3. the scene changed, or `wantsFrame` → draw and `present` if `canPresent`, else wait.
///
/// What it shares with the backends behind an `Output` — descriptors, wake-ups, release,
/// screen power, health, close — is `ScreenControl`.
///
/// The display is the one owner of frame pacing (`canPresent`, `nextWakeTime`: it knows whether
/// its flips wait for vblank and when the last one completed) and of the damage of its buffers
/// (`BufferDamage`: only it knows how many it has and which one is drawn into next). The loop
/// keeps no frame-rate cap of its own.
///
/// Its one implementation for screens is `Output` (Output.swift), around a backend that does
/// only what differs (`OutputBackend`: `DRMBackend`, `FBDevBackend`, `HeadlessBackend`);
/// `DRMDisplay`, `FBDevDisplay` and `HeadlessDisplay` name those outputs. Tests implement this
/// protocol directly where they script a display.
public protocol DisplayBackend: ScreenControl {
    /// The size the scene is laid out in (already swapped for 90°/270° rotation, and multiplied
    /// by `renderScale`, rounded); zero when no screen is connected.
    var size: (width: Int, height: Int) { get }
    /// The screen's size after rotation, before `renderScale`: what `size` is at scale 1, and
    /// the size touch positions are scaled from.
    var fullSize: (width: Int, height: Int) { get }
    /// `[display] render_scale` in effect (0.5…1): frames are drawn at `size` and enlarged to
    /// `fullSize` by the scan-out copy.
    var renderScale: Double { get }
    /// Changes the render scale (clamped to 0.5…1); the next frame is copied whole. Returns
    /// true when `size` changed: the loop lays the scene out again, as after a new mode.
    /// Backends without scaling ignore it and return false.
    func setRenderScale(_ scale: Double) -> Bool
    /// The refresh rate of the mode in Hz (the backend's own frame-rate cap where nothing else
    /// paces frames).
    var refreshRate: Double { get }
    /// True when a frame can be presented now (no flip in flight, the frame-rate cap allows it,
    /// the display is ours and a screen is connected). The loop draws only when this is true and
    /// otherwise waits until `nextWakeTime` or a readable descriptor.
    var canPresent: Bool { get }
    /// True when the backend needs a `present` although the scene did not change (after taking
    /// the display back, a new mode, new buffers). The frame passed must hold the whole current
    /// scene, as the loop's cached frame always does.
    var wantsFrame: Bool { get }
    /// Shows `frame`; only `damage` changed since the frame that was last presented. A frame that
    /// cannot be shown now (display lost, no screen) is remembered as damage, never an error.
    /// A frame sent to the screen gets the next `frameSequence`.
    func present(_ frame: Canvas, damage: [PixelRect]) throws
    /// The number of the latest frame `present` sent to the screen (1 for the first; 0 before).
    /// Read it after `present` to know which `FrameShown` will be that frame's. Numbers of
    /// frames that could not be shown are not reused, nor reported.
    var frameSequence: UInt64 { get }
    /// Called on the loop's thread when a presented frame reached the screen, with the time it
    /// did (the kernel's vblank timestamp of a page flip where there is one). Set by whoever
    /// measures latency; nil costs nothing.
    var onFrameShown: ((FrameShown) -> Void)? { get set }
    /// Queued frames (page flips) that reached the screen more than a refresh and a quarter
    /// after they were queued — a vblank missed — or never (the backend gave up waiting), since
    /// the start. 0 for displays that queue nothing.
    var flipsMissed: Int { get }
}

extension DisplayBackend {
    public var fullSize: (width: Int, height: Int) { size }
    public var renderScale: Double { 1 }
    public func setRenderScale(_ scale: Double) -> Bool { false }
    public var wantsFrame: Bool { false }
    public var health: DisplayHealth { size.width > 0 && size.height > 0 ? .showing : .notShowing }
    public var nextWakeTime: Double? { nil }
    public var flipsMissed: Int { 0 }
    public func handleWake() -> Bool { false }
    public func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        .unsupported(reason: "\(type(of: self)) has no screen power control")
    }
}

/// What a display says about its screen, for the watchdog: is what the loop presents shown?
public enum DisplayHealth: Equatable, Sendable {
    /// Frames given to `present` reach the screen (perhaps after a flip in flight or the
    /// frame-rate cap).
    case showing
    /// Nothing is expected on screen and no frame is owed: the display is released to another
    /// program or its DRM master was taken, the screen is switched off, unplugged, or closed.
    case notShowing
    /// A frame handed over was not confirmed on screen within the backend's time limit (a page
    /// flip whose completion event never came, in a row since `since`, monotonic seconds).
    case stalled(since: Double)
}
