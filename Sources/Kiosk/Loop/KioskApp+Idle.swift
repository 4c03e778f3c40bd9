import CarouselCore
import Raster

/// Idle behaviour: attract mode, going home, blanking and waking (the stages come from
/// `IdleController`; this carries them out on the session and the display).
extension KioskApp {
    func applyIdle(_ list: [IdleAction], now t: Double) {
        for a in list {
            log.write(time: t, name: a.eventName, fields: a.eventFields)
            if let line = log.lines.last { control?.broadcast(line) }
            switch a {
            case .attractBegan(let speed):
                if let speed { setAutoscroll(speed, now: t) }
            case .attractEnded:
                if session.engine.options.autoscroll != session.config.carousel.autoscroll {
                    setAutoscroll(session.config.carousel.autoscroll, now: t)
                    // Settle on the nearest item rather than stopping between two.
                    session.apply(.scrollTo(index: session.engine.currentIndex, duration: nil), now: t)
                }
            case .advance:
                let last = session.engine.itemCount - 1
                if session.engine.currentIndex >= last && !session.engine.wraps {
                    session.apply(.scrollTo(index: 0, duration: nil), now: t)
                } else {
                    session.apply(.step(1), now: t)
                }
            case .goHome(let index): session.apply(.scrollTo(index: index, duration: nil), now: t)
            case .blank:
                blanked = true
                presentBlack()
            case .wake:
                blanked = false
                session.resize(width: session.size.width, height: session.size.height)
            }
        }
        writeEvents(session.takeEvents())
    }


    /// The engine's autoscroll speed (attract mode's, or the configured one afterwards).
    func setAutoscroll(_ speed: Double, now t: Double) {
        var options = session.engine.options
        guard options.autoscroll != speed else { return }
        options.autoscroll = speed
        session.engine.update(options: options, itemCount: session.engine.itemCount, now: t)
    }


    /// A black frame where the display cannot switch itself off (DPMS belongs to the backend).
    func presentBlack() {
        guard display.canPresent, display.size.width > 0 else { return }
        let black = Canvas(width: display.size.width, height: display.size.height)
        do { try display.present(black, damage: [black.bounds]) } catch { logger.error("display: \(error)") }
    }

}
