import Foundation
import KioskConfig
import Logging

/// `[display] render_scale`: a fixed scale is the display's from the start; `"auto"` is decided
/// by `RenderScaleGovernor` from the frame times of drags, and a reload applies a new setting at
/// once (the display and the scene are sized again, as after a new mode).
final class RenderScaleComponent: KioskComponent {
    private unowned let context: KioskContext
    /// `[display] render_scale` as configured.
    private var setting: RenderScaleSetting
    /// The governor while the setting is `"auto"`.
    private(set) var governor: RenderScaleGovernor?

    init(setting: RenderScaleSetting, context: KioskContext) {
        self.context = context
        self.setting = setting
        governor = setting == .auto ? RenderScaleGovernor(refreshRate: context.display.refreshRate) : nil
    }

    /// After each presented frame: feeds the governor (`auto`) the frame's draw-and-copy time.
    func framePresented(_ frame: PresentedFrame) {
        guard var g = governor else { return }
        g.frame(duration: frame.duration, dragging: context.session.isTracking)
        governor = g
    }

    /// Between gestures (no finger down): applies the governor's due switch, logged once with the
    /// frame times that decided it.
    func prepare(now: Double) {
        guard var g = governor, g.due != nil, !context.session.isTracking else { return }
        guard let s = g.betweenGestures() else { governor = g; return }
        governor = g
        let ms = s.frames.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ")
        context.logger.notice("render_scale auto: \(s.from) → \(s.to): median drag frame \(String(format: "%.1f", s.medianFrameTime * 1000)) ms against \(String(format: "%.1f", g.interval * 1000)) ms per refresh (last frames: \(ms) ms)")
        if context.display.setRenderScale(s.to) { context.displayChanged() }
    }

    /// A reloaded `[display] render_scale`: the new fixed scale, or `auto` starting over at 1.
    func configAdopted(_ config: KioskConfiguration) {
        let new = config.display.renderScale
        guard new != setting else { return }
        setting = new
        governor = new == .auto ? RenderScaleGovernor(refreshRate: context.display.refreshRate) : nil
        context.logger.info("render_scale is now \(new)")
        if context.display.setRenderScale(new.initial) { context.displayChanged() }
    }
}
