import Display
import Raster

/// Blanking and waking the screen for `[idle] blank_after`: the display's own power control
/// (DPMS through the DRM connector, FBIOBLANK on fbdev) where it has one, else a black frame.
/// One log line on each blank and wake says which method was used. The idle controller keeps
/// the rule that the first touch after blanking only wakes.
extension KioskApp {
    /// `screen_blanked`: switch the screen off, or show a black frame where that is not possible.
    func blankScreen() {
        switch display.setScreenPower(false) {
        case .switched(let method):
            screenPowerMethod = method
            blackFramePending = false
            logger.notice("screen blanked (\(method.rawValue))")
        case .unsupported(let reason):
            screenPowerMethod = nil
            blackFramePending = true
            logger.notice("screen blanked (black frame: \(reason))")
            presentBlackIfDue()
        }
    }

    /// `screen_woke`: switch the screen back on if it was switched off; the carousel is drawn
    /// again in full either way (the behaviour asked the session for a full frame).
    func wakeScreen() {
        blackFramePending = false
        guard let method = screenPowerMethod else {
            logger.notice("screen woke (black frame)")
            return
        }
        screenPowerMethod = nil
        switch display.setScreenPower(true) {
        case .switched:
            logger.notice("screen woke (\(method.rawValue))")
        case .unsupported(let reason):
            logger.notice("screen woke (\(method.rawValue): \(reason))")
        }
    }

    /// While blanked, every frame the display can take is black: the first one after a blank
    /// without power control, and any it asks for (a hotplug, taking the display back, a
    /// backend that could not keep the screen off). A display that is switched off takes none.
    func presentBlackIfDue() {
        guard blackFramePending || display.wantsFrame, !actions.isForegroundActive, display.canPresent,
              display.size.width > 0, display.size.height > 0 else { return }
        let black = Canvas(width: display.size.width, height: display.size.height)
        do {
            try display.present(black, damage: [black.bounds])
            blackFramePending = false
        } catch {
            displayErrors += 1
            logger.error("display: \(error)")
        }
    }
}
