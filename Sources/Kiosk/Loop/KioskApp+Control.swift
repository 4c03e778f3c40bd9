import Foundation

/// Commands from the control socket, answered in the loop.
extension KioskApp {
    func handleControl() {
        guard let control else { return }
        let t = now
        for request in control.handleEvents() {
            switch request.command {
            case .scrollTo(let index, let duration):
                guard session.config.items.indices.contains(index) else {
                    control.reply(to: request, .error("no item \(index): there are \(session.config.items.count)"))
                    continue
                }
                session.apply(.scrollTo(index: index, duration: duration), now: t)
                control.reply(to: request, .ok)
            case .scrollBy(let items, let duration):
                session.apply(.scrollBy(items: items, duration: duration), now: t)
                control.reply(to: request, .ok)
            case .select(let index):
                if let index {
                    guard session.config.items.indices.contains(index) else {
                        control.reply(to: request, .error("no item \(index)"))
                        continue
                    }
                    session.apply(.scrollTo(index: index, duration: 0), now: t)
                }
                session.apply(.select, now: t)
                control.reply(to: request, .ok)
            case .reload:
                reload(reason: "control socket")
                control.reply(to: request, .ok)
            case .state:
                control.reply(to: request, .state(ControlState(index: session.engine.currentIndex, offset: session.engine.scrollOffset,
                    itemCount: session.engine.itemCount, width: display.size.width, height: display.size.height,
                    fps: fps, foreground: actions.isForegroundActive, blanked: behavior.blanked)))
            case .screenshot(let path):
                do {
                    try ScreenshotWriter.write(session.scene.frame, to: path)
                    control.reply(to: request, .screenshot(path: path))
                } catch {
                    // The client gets the reason; the journal too (a full disk is worth knowing).
                    logger.error("screenshot for the control socket failed: \(error)")
                    control.reply(to: request, .error("\(error)"))
                }
            }
        }
        behavior.flushEvents()
    }


    /// Frames per second over the last second (0 when still).
    var fps: Double {
        let t = monotonicNow()
        let recent = presentTimes.filter { t - $0 <= 1 }
        return Double(recent.count)
    }

}
