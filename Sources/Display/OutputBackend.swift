/// What differs between the screens an `Output` drives — DRM/KMS (`DRMBackend`), the Linux
/// framebuffer (`FBDevBackend`), a canvas in memory (`HeadlessBackend`) — and nothing else: the
/// buffers ("slots") frames are copied into, how a slot is shown ("commit": a page flip, a mode
/// set, a pan, a write), screen power, the backend's own descriptors and wake-ups (flip events,
/// hotplug, DRM master), release and reacquire. As wlroots' `wlr_output_impl` is to `wlr_output`.
///
/// The `Output` owns everything the backends share: the render scale and the drawn size, the
/// damage of every slot (`BufferDamage`), the clock pacing (`RefreshCap`), the frame sequence,
/// the frame figures and `onFrameShown`, and the (scaled, rotated) copy into a slot. A backend
/// tells its output what happened between presents through `OutputEvents` (given by `attach`).
///
/// Its `ScreenControl` part is the backend's own: `nextWakeTime` is its own next wake-up (a flip's
/// timeout, the next attempt to take DRM master back, a relayout owed; the output adds its clock
/// pacing), `handleReadable` and `handleWake` return true when `screenSize` changed, and
/// `reacquire` calls `OutputEvents.slotsLost()` when the slots may have been drawn over.
public protocol OutputBackend: ScreenControl {
    /// The screen's size after rotation, before the render scale (`DisplayBackend.fullSize`);
    /// zero while no screen is connected.
    var screenSize: (width: Int, height: Int) { get }
    /// How the scene is turned on its way into a slot.
    var rotation: DisplayRotation { get }
    /// The refresh rate of the mode in Hz: the rate the output's clock pacing caps frames at.
    var refreshRate: Double { get }
    /// How many slots the backend has (1–3); fixed for the backend's life, so the output keeps
    /// the damage of each.
    var slotCount: Int { get }
    /// True when a frame may reach the screen: the device is ours, a screen is connected and
    /// switched on, the backend is open. Otherwise `present` only records the damage.
    var isShowing: Bool { get }
    /// True when no commit is in flight (a page flip whose completion has not come): the next
    /// frame may be committed as far as the backend is concerned.
    var isIdle: Bool { get }
    /// What decides when the next frame may go.
    var pacing: OutputPacing { get }

    /// Receives the output's events sink; called once, by `Output.init`.
    func attach(_ events: any OutputEvents)
    /// The slot the next frame goes into and its memory (wlroots: `wlr_swapchain_acquire`). Called
    /// only when `isShowing` and `isIdle`, right before the output copies the frame's damage into
    /// it. A single-buffered backend may wait for vblank here. Nil: there is no buffer to draw
    /// into after all (a DRM output whose buffers, made on their own thread, could not be
    /// made); nothing is presented, and `isShowing` is false from then on.
    func acquireSlot() -> (index: Int, buffer: ScanoutBuffer)?
    /// Shows slot `index` as frame `sequence` (`DisplayBackend.frameSequence`), `now` being the
    /// time the present began. Throws a `DisplayError` when the device fails for good.
    func commit(slot index: Int, sequence: UInt64, at now: Double) throws -> CommitOutcome
    /// The first frame reached the screen (the output calls it once, for the backend's log).
    func firstFrameShown()
}

extension OutputBackend {
    public var pollDescriptors: [Int32] { [] }
    public var nextWakeTime: Double? { nil }
    public func attach(_ events: any OutputEvents) {}
    public func firstFrameShown() {}
    public func handleReadable(_ fd: Int32) -> Bool { false }
    public func handleWake() -> Bool { false }
}

/// What a backend tells its `Output` between presents (wlroots: `wlr_output_send_present`,
/// `wlr_output_update_needs_frame`, a damage ring's "whole buffer" on a new swapchain).
public protocol OutputEvents: AnyObject {
    /// A committed frame (`CommitOutcome.queued`) reached the screen, or was given up on, as
    /// `shown` says; `now` is when the backend learned it.
    func commitCompleted(_ shown: FrameShown, at now: Double)
    /// What the slots hold is unknown (new buffers, another program drew on the screen, the
    /// screen was switched on again): the next frame is copied whole, and one is wanted.
    func slotsLost()
    /// A frame is wanted although the scene did not change (a flip was given up on).
    func frameWanted()
}

/// What committing a slot came to.
public enum CommitOutcome: Equatable, Sendable {
    /// On screen now (a mode set, a pan, a write); `crtcID` for the `FrameShown` (0 if none).
    case shown(crtcID: UInt32)
    /// Queued (a page flip): `OutputEvents.commitCompleted` says when it is on screen.
    case queued
    /// The device still has a commit in flight (EBUSY): the slot is up to date; show it next time.
    case busy
    /// The frame cannot go and is owed nothing: the display was lost on the way (DRM master
    /// taken); the backend asks for a frame when it has the display back.
    case dropped
}

/// What decides when the next frame may go.
public enum OutputPacing: Equatable, Sendable {
    /// The backend's completion events: a commit waits for vblank, so the end of the one in
    /// flight (`OutputBackend.isIdle`) is the pacing.
    case completionEvents
    /// The refresh rate by the clock (`RefreshCap`): backends without completion events, and
    /// flips that complete long before vblank (virtual GPUs).
    case clock
    /// Nothing: every frame is shown at once (`simulate`'s virtual time).
    case unpaced
}
