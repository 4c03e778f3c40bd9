/// The frame figures a long run watches (docs/reliability.md, "Endurance"): the draw-and-hand
/// time of every frame the pump presented, in a histogram (`FrameTimeHistogram`), and the page
/// flips the display reports as missed (`DisplayBackend.flipsMissed`). Both go to the metrics
/// file (`kiosk_carousel_frame_duration_seconds`, `kiosk_carousel_flips_missed_total`).
final class FrameTimesComponent: KioskComponent {
    private unowned let context: KioskContext
    private(set) var histogram = FrameTimeHistogram()

    init(context: KioskContext) { self.context = context }

    func framePresented(_ frame: PresentedFrame) { histogram.record(frame.duration) }

    func report(into health: inout KioskHealth) {
        health.frameTimes = histogram
        health.flipsMissed = context.display.flipsMissed
    }
}
