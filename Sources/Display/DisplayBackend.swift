import CarouselCore
import Raster

/// The screen, whatever drives it: DRM/KMS, the Linux framebuffer, or PNG files.
///
/// The loop draws a frame into its own cached-memory `Canvas` of `size`, then calls
/// `present(_:damage:)`; the backend copies the damaged rectangles (rotated if configured) into
/// its buffer and shows it. Backends that complete asynchronously (page flips) report
/// readiness through `pollDescriptors` and `handleReadable()`.
public protocol DisplayBackend: AnyObject {
    /// The size the scene is laid out in (already swapped for 90°/270° rotation); zero when no
    /// screen is connected.
    var size: (width: Int, height: Int) { get }
    /// The refresh rate of the mode in Hz (a frame-rate cap for drivers that flip early).
    var refreshRate: Double { get }
    /// File descriptors the main loop waits on for this backend.
    var pollDescriptors: [Int32] { get }
    /// True when a frame can be presented now (no flip in flight, the display is ours).
    var canPresent: Bool { get }
    /// Shows `frame`; only `damage` changed since the frame that was last presented.
    func present(_ frame: Canvas, damage: [PixelRect]) throws
    /// Handles readiness of one of `pollDescriptors` (flip completions, hotplug).
    /// Returns true when the size changed and the scene must be laid out again.
    func handleReadable(_ fd: Int32) -> Bool
    /// Gives the screen to another program (drops DRM master) until `reacquire()`.
    func release()
    /// Takes the screen back after `release()`; the next frame must be drawn in full.
    func reacquire()
    /// Restores what the screen showed before we started, and frees everything.
    func close()
}

/// A display error with the fix in its message.
public struct DisplayError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
