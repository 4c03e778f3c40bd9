import LinuxSystem

/// The engine's clock in the loop: a `TickTimer` at `[carousel] tick_hz` armed exactly while the
/// engine moves or a card fades in (`CarouselSession.needsTick`; clips wake the loop themselves:
/// `VideoFrames`), and the card workers' eventfd (faces drawn off the loop are taken in here).
final class EngineTick: KioskComponent {
    private let tick: TickTimer
    private unowned let context: KioskContext

    init(context: KioskContext) throws {
        self.context = context
        tick = try TickTimer()
    }

    func attach(to reactor: Reactor) throws {
        try reactor.watch(tick.fd) { [unowned self] in
            self.tick.acknowledge()
            self.context.behavior.tick(now: self.context.now)
        }
        try reactor.watch(context.session.cardEventFD) { [unowned self] in
            self.context.session.drainCards(now: self.context.now)
        }
    }

    func prepare(now: Double) {
        let session = context.session
        if session.needsTick {
            if !tick.isArmed { tick.armRepeating(interval: 1 / max(1, session.config.carousel.tickHz)) }
        } else if tick.isArmed {
            tick.disarm()
        }
    }
}
