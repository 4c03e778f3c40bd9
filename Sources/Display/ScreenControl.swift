/// What a display and the backend behind it both answer apart from frames: the descriptors and
/// wake-ups the loop waits for, giving the screen away and back, switching it off, its health,
/// and closing. `DisplayBackend` (what the loop calls) and `OutputBackend` (what an `Output`
/// calls) refine it; an `Output` passes these on to its backend.
public protocol ScreenControl: AnyObject {
    /// File descriptors the main loop waits on for this display.
    var pollDescriptors: [Int32] { get }
    /// A monotonic time (seconds, `CLOCK_MONOTONIC`) at which the loop should call `handleWake()`
    /// even if no descriptor is readable: the end of the frame-rate cap, a page flip's timeout,
    /// the next attempt to take the display back. nil: nothing is due.
    var nextWakeTime: Double? { get }
    /// Handles readiness of one of `pollDescriptors` (flip completions, hotplug).
    /// Returns true when the size changed and the scene must be laid out again.
    func handleReadable(_ fd: Int32) -> Bool
    /// Called when `nextWakeTime` has passed. Returns true when the size changed.
    func handleWake() -> Bool
    /// Gives the screen to another program (drops DRM master) until `reacquire()`.
    func release()
    /// Takes the screen back after `release()`; then `wantsFrame` asks for a frame.
    func reacquire()
    /// Switches the screen itself off (`false`) or back on (`true`) — DPMS on DRM, FBIOBLANK on
    /// fbdev — for `[idle] blank_after`.
    ///
    /// While off the backend presents nothing (`canPresent` is false, `present` only records
    /// damage) and keeps what it needs to come back. Switching on, it powers the screen up, sets
    /// the mode again where needed, and asks for the current frame (`wantsFrame`). The wanted
    /// state survives `release()`/`reacquire()`, losing the display and hotplug; `close()`
    /// switches the screen back on.
    ///
    /// Returns `.unsupported(reason:)` when the screen could not be switched: switching off, the
    /// caller then shows a black frame instead (and the backend stays ready to present it).
    /// The default implementation, for backends without power control, always says so.
    func setScreenPower(_ on: Bool) -> ScreenPowerResult
    /// Whether frames given to `present` reach the screen, for the loop's watchdog
    /// (`ScreenWatch`): `.notShowing` when nothing is expected on screen (released, DRM master
    /// lost, switched off, unplugged, closed), `.stalled(since:)` when a frame was submitted but
    /// not confirmed on screen within the backend's time limit (a page flip whose completion never
    /// came). The default: `.showing` while `size` is not zero.
    var health: DisplayHealth { get }
    /// Restores what the screen showed before we started, and frees everything. Safe to call
    /// more than once; call it on normal exit, from the loop's SIGTERM/SIGINT (signalfd)
    /// handling and before exiting on a fatal error (not from inside an async signal handler).
    func close()
}
