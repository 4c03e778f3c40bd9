import Display
import Raster

/// The screen's blank and wake for `[idle] blank_after` (the stages themselves are
/// `KioskBehavior`'s, on time through `IdleTimer`): the display's own power control (DPMS
/// through the DRM connector, FBIOBLANK on fbdev) where it has one, else a black frame. One log
/// line on each blank and wake says which method was used. With `[display] power = "cec"` the
/// display shows a black frame and the TV goes to standby over HDMI-CEC (`CECComponent`);
/// `"both"` does DPMS and CEC. The idle controller keeps the rule that the first touch after
/// blanking only wakes.
final class ScreenBlanker: KioskComponent {
    private unowned let context: KioskContext
    /// How the display switched the screen off for the current blank; nil: not blanked, or
    /// blanked with a black frame.
    private(set) var screenPowerMethod: ScreenPowerMethod?
    /// Blanked with a black frame that is not on screen yet (the display could not take it).
    private(set) var blackFramePending = false
    /// Black frames the display refused (`errors{kind="display"}`).
    private var displayErrors = 0

    init(context: KioskContext) {
        self.context = context
        context.behavior.onBlank = { [unowned self] in self.blankScreen() }
        context.behavior.onWake = { [unowned self] in self.wakeScreen() }
    }

    /// While blanked, the carousel's frames stay off the screen.
    var holdsFrames: Bool { context.behavior.blanked }

    func prepare(now: Double) {
        if context.behavior.blanked { presentBlackIfDue() }
    }

    func report(into health: inout KioskHealth) {
        health.blanked = context.behavior.blanked
        health.errors["display", default: 0] += displayErrors
    }

    /// `screen_blanked`: switch the screen off, or show a black frame where that is not possible.
    func blankScreen() {
        let power = context.behavior.store.loaded.display.power
        context.component(CECComponent.self)?.screenPower(on: false)
        guard power.usesDPMS else {
            screenPowerMethod = nil
            blackFramePending = true
            context.logger.notice("screen blanked (cec; black frame)")
            presentBlackIfDue()
            return
        }
        switch context.display.setScreenPower(false) {
        case .switched(let method):
            screenPowerMethod = method
            blackFramePending = false
            context.logger.notice("screen blanked (\(method.rawValue))")
        case .unsupported(let reason):
            screenPowerMethod = nil
            blackFramePending = true
            context.logger.notice("screen blanked (black frame: \(reason))")
            presentBlackIfDue()
        }
    }

    /// `screen_woke`: switch the screen back on if it was switched off; the carousel is drawn
    /// again in full either way (the behaviour asked the session for a full frame).
    func wakeScreen() {
        blackFramePending = false
        context.component(CECComponent.self)?.screenPower(on: true)
        guard let method = screenPowerMethod else {
            let cec = context.behavior.store.loaded.display.power.usesDPMS ? "" : "cec; "
            context.logger.notice("screen woke (\(cec)black frame)")
            return
        }
        screenPowerMethod = nil
        switch context.display.setScreenPower(true) {
        case .switched:
            context.logger.notice("screen woke (\(method.rawValue))")
        case .unsupported(let reason):
            context.logger.notice("screen woke (\(method.rawValue): \(reason))")
        }
    }

    /// While blanked, every frame the display can take is black: the first one after a blank
    /// without power control, and any it asks for (a hotplug, taking the display back, a
    /// backend that could not keep the screen off). A display that is switched off takes none,
    /// and a foreground program has the screen.
    func presentBlackIfDue() {
        let display = context.display
        let foreground = context.component(ActionsComponent.self)?.isForegroundActive ?? false
        guard blackFramePending || display.wantsFrame, !foreground, display.canPresent,
              display.size.width > 0, display.size.height > 0 else { return }
        let black = Canvas(width: display.size.width, height: display.size.height)
        do {
            try display.present(black, damage: [black.bounds])
            blackFramePending = false
        } catch {
            displayErrors += 1
            context.logger.error("display: \(error)")
        }
    }
}
