import CarouselCore
import Display
import KioskConfig
import Raster

/// Burn-in care (`[display] pixel_shift`): where the scene is moved to over time. The session's
/// owner (`KioskBehavior`) holds it and gives it to the session (`CarouselSession.shift`), which
/// asks it to move the quads it draws and the input it gets, and to take its step on each tick
/// and frame; `PixelShiftTimer` wakes the kiosk's loop for its steps.
public final class PixelShiftState: SceneShifting {
    /// The path and interval the offset follows.
    public private(set) var pixelShift: PixelShift
    /// The offset every quad of the scene is drawn at now, and input is mapped back by (the
    /// background stays put). Changes only in `update(now:)` (and so on a tick or a frame), one
    /// pixel at a time.
    public private(set) var sceneOffset: (x: Int, y: Int)
    private unowned let session: CarouselSession

    /// Moves `session`'s scene (and becomes its `shift`) as its configuration's `[display]` says.
    /// - Parameter phase: seconds added to the time before the step is looked up (the live loop
    ///   passes the wall clock, so a restart does not go back to the centre; `simulate` passes
    ///   0: its first frame is unshifted).
    public init(session: CarouselSession, phase: Double = 0) {
        self.session = session
        let display = session.config.display
        pixelShift = PixelShift(range: display.pixelShift, interval: display.pixelShiftInterval, phase: phase)
        sceneOffset = pixelShift.offset(at: 0)
        nextStep = pixelShift.nextChange(after: 0)
        session.shift = self
    }

    /// Takes the step for `now`; a new offset needs a frame (the whole scene moves by one
    /// pixel). The loop calls it when `nextStep` is due, the session's tick and every frame do.
    public func update(now: Double) {
        let o = pixelShift.offset(at: now)
        nextStep = pixelShift.nextChange(after: now)
        if o != sceneOffset {
            sceneOffset = o
            session.needsFrame = true
        }
    }

    /// When the step after the one taken last (`update(now:)`) is due, in the session's time; nil
    /// when the shift is off. Kept from the last step taken, never worked out from the clock when
    /// asked: a step whose time passes while a frame is drawn is still due when the loop arms its
    /// timer after that frame (its deadline is then in the past, and the loop takes it at once),
    /// where a deadline from the clock would already point to the step after it.
    public private(set) var nextStep: Double?

    /// The session's configuration is `config` from `now` on: a changed `[display]` shift takes
    /// its step at once (keeping the phase).
    func reload(_ config: KioskConfiguration, now: Double) {
        let shift = PixelShift(range: config.display.pixelShift, interval: config.display.pixelShiftInterval,
                               phase: pixelShift.phase)
        if shift != pixelShift {
            pixelShift = shift
            update(now: now)
        }
    }

    /// `quads` moved by the offset (whole pixels: each quad's pixels are the same, one pixel over).
    func shifted(_ quads: [Quad]) -> [Quad] {
        let dx = Double(sceneOffset.x), dy = Double(sceneOffset.y)
        guard dx != 0 || dy != 0 else { return quads }
        return quads.map { q in
            var moved = q
            moved.corners = q.corners.map { Point2($0.x + dx, $0.y + dy) }
            return moved
        }
    }

    /// `event` in the coordinates the scene is laid out in: screen positions minus the offset
    /// (the full-screen clip is not shifted and sees the screen's). The offset is in frame
    /// pixels: at a render scale below 1 it is that many screen pixels over the scale.
    func unshifted(_ event: InputEvent, renderScale: Double) -> InputEvent {
        let dx = Double(sceneOffset.x) / renderScale, dy = Double(sceneOffset.y) / renderScale
        guard dx != 0 || dy != 0 else { return event }
        switch event {
        case .touchDown(let slot, let x, let y): return .touchDown(slot: slot, x: x - dx, y: y - dy)
        case .touchMotion(let slot, let x, let y): return .touchMotion(slot: slot, x: x - dx, y: y - dy)
        case .pointerMotion(let x, let y): return .pointerMotion(x: x - dx, y: y - dy)
        default: return event
        }
    }
}
