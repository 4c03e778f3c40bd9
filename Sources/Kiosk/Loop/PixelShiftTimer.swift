/// `[display] pixel_shift`: wakes the loop when the scene moves by its next pixel, and that frame
/// is the only one between two steps. Not while the carousel's frames are held off the screen
/// (blanked, a foreground program): the first frame after those is drawn at the offset due.
final class PixelShiftTimer: KioskComponent {
    private unowned let context: KioskContext

    init(context: KioskContext) { self.context = context }

    var nextDeadline: Double? {
        guard !context.framesHeld else { return nil }
        return context.behavior.pixelShift.nextStep
    }

    func deadlineReached(now: Double) { context.behavior.pixelShift.update(now: now) }

    /// The offset due now, before the frame pump draws (after a blank, a step may have passed).
    func prepare(now: Double) {
        if !context.framesHeld { context.behavior.pixelShift.update(now: now) }
    }
}
