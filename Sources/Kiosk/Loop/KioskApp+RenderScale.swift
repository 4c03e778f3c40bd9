import Foundation
import KioskConfig

/// `[display] render_scale`: a fixed scale is the display's from the start; `"auto"` is decided
/// by `RenderScaleGovernor` from the frame times of drags, and a reload applies a new setting at
/// once (the display and the scene are sized again, as after a new mode).
extension KioskApp {
    /// After each presented frame: feeds the governor (`auto`) the frame's draw-and-copy time,
    /// and between gestures takes a switch it decided.
    func renderScaleFrame(duration: Double) {
        guard var g = scaleGovernor else { return }
        g.frame(duration: duration, dragging: session.isTracking)
        scaleGovernor = g
    }

    /// Between gestures (no finger down): applies the governor's due switch, logged once with the
    /// frame times that decided it.
    func renderScaleBetweenGestures() {
        guard var g = scaleGovernor, g.due != nil, !session.isTracking else { return }
        guard let s = g.betweenGestures() else { scaleGovernor = g; return }
        scaleGovernor = g
        let ms = s.frames.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ")
        logger.notice("render_scale auto: \(s.from) → \(s.to): median drag frame \(String(format: "%.1f", s.medianFrameTime * 1000)) ms against \(String(format: "%.1f", g.interval * 1000)) ms per refresh (last frames: \(ms) ms)")
        if display.setRenderScale(s.to) { displayChanged() }
    }

    /// A reloaded `[display] render_scale`: the new fixed scale, or `auto` starting over at 1.
    func applyRenderScale(_ setting: RenderScaleSetting) {
        guard setting != renderScaleSetting else { return }
        renderScaleSetting = setting
        scaleGovernor = setting == .auto ? RenderScaleGovernor(refreshRate: display.refreshRate) : nil
        logger.info("render_scale is now \(setting)")
        if display.setRenderScale(setting.initial) { displayChanged() }
    }
}
