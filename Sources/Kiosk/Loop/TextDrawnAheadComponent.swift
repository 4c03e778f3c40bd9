import Cards
import LinuxSystem

/// The first frame's title and language badge, drawn by `run`'s fonts' thread
/// (`FirstFrameAhead`) while the loop draws the first frame without them: gives the box to the
/// session, watches its eventfd (each overlay handed over asks for a frame that shows it) until
/// the thread is done, and logs once when the text reached the screen:
/// `start-up: the first frame's text on screen 0.07 s after the first frame (drawn ahead on the
/// fonts' thread)`, or `… in the first frame …` when it was there in time (docs/start-up.md,
/// stop 56).
final class TextDrawnAheadComponent: KioskComponent {
    private var text: OverlaysDrawnAhead?
    private unowned let context: KioskContext
    private var firstShownAt: Double?
    private var logged = false

    init(text: OverlaysDrawnAhead, context: KioskContext) {
        self.text = text
        self.context = context
    }

    /// True until the thread drawing the text is done (what was handed over is then shown by
    /// the next frame): the input devices open after that frame (`InputDevicesComponent`).
    var isDrawing: Bool { text != nil }

    func attach(to reactor: Reactor) throws {
        guard let text else { return }
        context.session.showTextDrawnAhead(text)
        try reactor.watch(text.eventFD) { [unowned self, unowned reactor] in
            guard let text = self.text else { return }
            let finished = text.acknowledge()
            self.context.session.textDrawnAheadArrived()
            if finished {
                reactor.unwatch(text.eventFD)
                self.text = nil
            }
        }
    }

    func framePresented(_ frame: PresentedFrame) {
        guard !logged else { return }
        let shownAt = frame.time + frame.duration
        let waiting = context.session.textLeftOutForDrawnAhead
        guard let first = firstShownAt else {
            firstShownAt = shownAt
            if !waiting {
                logged = true
                context.logger.info("start-up: the first frame's text in the first frame (drawn ahead on the fonts' thread)")
            }
            return
        }
        guard !waiting else { return }
        logged = true
        context.logger.info("start-up: the first frame's text on screen \(StartupTimeline.seconds(shownAt - first)) after the first frame (drawn ahead on the fonts' thread)")
    }

    func stop(now: Double) {
        if let text { context.reactor.unwatch(text.eventFD) }
        text = nil
    }
}
