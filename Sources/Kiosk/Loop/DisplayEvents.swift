import LinuxSystem

/// What the display backend needs from the loop: its descriptors (hotplug, page flips, DRM
/// master) and its own timers (the end of its frame-rate cap, a flip timeout, retries to take
/// master back: `nextWakeTime`, handled before the frame pump draws). A change of the screen
/// resizes the scene and is told to every component (`KioskContext.displayChanged`).
final class DisplayEvents: KioskComponent {
    private unowned let context: KioskContext

    init(context: KioskContext) { self.context = context }

    func attach(to reactor: Reactor) throws {
        let display = context.display
        for fd in display.pollDescriptors {
            try reactor.watch(fd) { [unowned self] in
                if display.handleReadable(fd) { self.context.displayChanged() }
            }
        }
    }

    func prepare(now: Double) {
        let display = context.display
        if let w = display.nextWakeTime, context.displayClock() >= w, display.handleWake() { context.displayChanged() }
    }
}
