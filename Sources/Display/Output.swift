import CarouselCore
import Raster

/// The screen as the loop sees it, whatever drives it: what every display backend shares, once
/// (as wlroots' `wlr_output` with a `wlr_damage_ring`), around a `Backend` that implements only
/// what differs (`OutputBackend`: slots, commit, power, descriptors).
///
/// The output owns:
/// - the render scale (`setRenderScale`) and so the drawn size, `size`, always
///   `RenderScale.sceneSize` of the backend's `screenSize`;
/// - the damage of every slot (`BufferDamage`): each slot receives the union of the damage since
///   *it* was last written, so a frame is copied only where that slot is out of date;
/// - the copy of that damage from the loop's cached frame into the slot (`ScanoutCopier`:
///   rotated, converted, enlarged when the render scale is below 1);
/// - the pacing by the clock (`RefreshCap` at the backend's refresh rate) whenever the backend's
///   `pacing` says `.clock`; `canPresent` and `nextWakeTime` combine it with the backend's state;
/// - the frame sequence, the figures (`stats`) and `onFrameShown`: a frame shown at once is
///   reported here, a queued one when its backend calls `OutputEvents.commitCompleted`.
///
/// `DRMDisplay`, `FBDevDisplay` and `HeadlessDisplay` are outputs of the three backends.
public final class Output<Backend: OutputBackend>: DisplayBackend, OutputEvents {
    /// What drives the screen.
    public let backend: Backend
    public private(set) var renderScale: Double
    public private(set) var wantsFrame = true
    public private(set) var frameSequence: UInt64 = 0
    public var onFrameShown: ((FrameShown) -> Void)?
    /// Frames shown so far, pixels copied, the first frame's time.
    public private(set) var stats = OutputFrameStats()
    /// What each slot lacks.
    private var damage: BufferDamage
    private let copier = ScanoutCopier()
    private var cap: RefreshCap
    /// Monotonic seconds (`CLOCK_MONOTONIC` or a test's fake): pacing, and the times reported.
    private let clock: () -> Double

    /// An output around `backend`, drawing at `renderScale` (clamped to 0.5…1), reading the time
    /// from `clock`. Every slot starts unknown: the first frame is copied whole.
    public init(backend: Backend, renderScale: Double, clock: @escaping () -> Double) {
        self.backend = backend
        self.renderScale = RenderScale.clamp(renderScale)
        self.clock = clock
        damage = BufferDamage(buffers: backend.slotCount)
        cap = RefreshCap(refreshRate: backend.refreshRate)
        damage.invalidateAll(fullRect)
        backend.attach(self)
    }

    // MARK: size and scale

    public var size: (width: Int, height: Int) {
        let f = fullSize
        return RenderScale.sceneSize(width: f.width, height: f.height, scale: renderScale)
    }
    public var fullSize: (width: Int, height: Int) { backend.screenSize }
    public var refreshRate: Double { backend.refreshRate }
    /// How a frame drawn below the screen's size is enlarged.
    public var scaleFilter: ScaleFilter { copier.filter }

    public func setRenderScale(_ scale: Double) -> Bool {
        let old = size
        renderScale = RenderScale.clamp(scale)
        guard size != old else { return false }
        slotsLost()
        return true
    }

    // MARK: pacing

    public var canPresent: Bool { backend.isShowing && backend.isIdle && pacingAllows(clock()) }

    public var nextWakeTime: Double? {
        if let t = backend.nextWakeTime { return t }
        guard backend.isShowing, backend.pacing == .clock else { return nil }
        return cap.wakeTime(after: clock())
    }

    public func handleWake() -> Bool { backend.handleWake() }

    private func pacingAllows(_ now: Double) -> Bool { backend.pacing != .clock || cap.allows(now) }

    // MARK: presenting

    public func present(_ frame: Canvas, damage rects: [PixelRect]) throws {
        damage.record(rects)
        guard backend.isShowing else { return }
        guard frame.width == size.width, frame.height == size.height else {
            // Drawn for another size (a hotplug happened since): wait for the relaid-out frame.
            slotsLost()
            return
        }
        let now = clock()
        guard backend.isIdle, pacingAllows(now) else {
            // Too early (the loop should check canPresent); the damage is kept for the next one.
            wantsFrame = true
            return
        }
        guard let slot = backend.acquireSlot() else { return }
        var copied = 0
        for r in damage.take(slot.index) { copied += copier.copy(r, from: frame, to: slot.buffer, rotation: backend.rotation) }
        stats.copied(copied)
        let sequence = frameSequence + 1
        let outcome = try backend.commit(slot: slot.index, sequence: sequence, at: now)
        switch outcome {
        case .dropped:
            return
        case .busy:
            wantsFrame = true
            return
        case .shown, .queued:
            break
        }
        frameSequence = sequence
        stats.framesPresented += 1
        wantsFrame = false
        cap.setRefreshRate(backend.refreshRate)
        cap.presented(at: now)
        guard case .shown(let crtcID) = outcome else {
            stats.queuedAt = now
            return
        }
        if stats.firstFrameTime == nil {
            stats.firstFrameTime = now
            backend.firstFrameShown()
        }
        onFrameShown?(FrameShown(sequence: sequence, time: clock(), timing: .submitted, crtcID: crtcID))
    }

    // MARK: OutputEvents

    public func commitCompleted(_ shown: FrameShown, at now: Double) {
        stats.completions += 1
        stats.completed(shown, refreshRate: backend.refreshRate)
        stats.firstFrameTime = stats.firstFrameTime ?? now
        onFrameShown?(shown)
    }

    public func slotsLost() {
        damage.invalidateAll(fullRect)
        wantsFrame = true
    }

    public func frameWanted() { wantsFrame = true }

    /// The whole drawn frame.
    private var fullRect: PixelRect { PixelRect(x: 0, y: 0, width: size.width, height: size.height) }

    // MARK: the backend's own

    public var pollDescriptors: [Int32] { backend.pollDescriptors }
    public func handleReadable(_ fd: Int32) -> Bool { backend.handleReadable(fd) }
    public func release() { backend.release() }
    public func reacquire() { backend.reacquire() }
    public func setScreenPower(_ on: Bool) -> ScreenPowerResult { backend.setScreenPower(on) }
    public var health: DisplayHealth { backend.health }
    public func close() { backend.close() }
}
