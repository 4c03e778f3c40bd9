/// The states of `DRMBackend`, one type per question: is the device ours (`DRMOwnership`),
/// is a screen driven and how (`DRMOutput`, `DRMPresenter`), is a flip in flight (`DRMFlip`).
/// What paces frames is an `OutputPacing` (flip events, or the clock).

/// Whether this process is DRM master of the card.
enum DRMOwnership: Equatable {
    /// DRM master: mode sets and flips may be made.
    case owned
    /// Given away on request (`release()`, a foreground action); taken back by `reacquire()`,
    /// never by retrying.
    case released
    /// Taken by another program (a mode set or flip failed with EACCES/EPERM, or taking it back
    /// failed): `drmSetMaster` is tried again at `retryAt`.
    case lost(retryAt: Double)
}

/// How frames reach the screen, chosen when the output is configured (as wlroots chooses its
/// commit implementation once per device).
enum DRMPresenter: Equatable, CustomStringConvertible {
    /// One `drmModeSetCrtc`, then `drmModePageFlip` with a completion event per frame.
    case pageFlip
    /// `drmModeSetCrtc` (+ `drmModeDirtyFB`) for every frame: drivers that refuse page flips.
    /// No completion events, so frames are paced by the clock.
    case setCrtcPerFrame

    var description: String { self == .pageFlip ? "page flips" : "a mode set per frame" }
}

/// A screen being driven: its mode, the buffers made for it and how they are shown.
struct DRMConfiguredOutput {
    var mode: DRMMode
    /// The scan-out buffers (2 or 3), all of `mode`'s size.
    var buffers: [DumbBuffer]
    var presenter: DRMPresenter
    /// The buffer on screen (or the one the next frame must not be drawn into).
    var front = 0
    /// The next frame must be shown with `drmModeSetCrtc`: nothing of ours is on the CRTC yet
    /// (just configured, master taken back, screen switched on again).
    var needsModeSet = true
}

/// The screen the backend drives.
enum DRMOutput {
    /// No screen driven: none connected, or its buffers could not be made. `size` is zero and
    /// nothing is drawn.
    case unplugged
    /// A connected screen with its mode set up (or about to be, `needsModeSet`).
    case configured(DRMConfiguredOutput)
}

/// The page flip in flight, at most one.
enum DRMFlip: Equatable {
    case idle
    /// `buffer` was submitted at `since` (monotonic seconds) as frame `sequence`
    /// (`DisplayBackend.frameSequence`); its completion event makes it the front buffer.
    case pending(buffer: Int, since: Double, sequence: UInt64)
}
