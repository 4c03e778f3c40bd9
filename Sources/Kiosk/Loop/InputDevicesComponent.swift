import Input
import KioskConfig
import LinuxSystem

/// The input devices in the loop: their descriptors (which change with hotplug) watched, each
/// event delivered at its kernel time in the loop's clock (`InputClock`) to the behaviour, the
/// touch mapping told of every new screen size, the devices handed to a foreground program and
/// taken back, and opened again for the configuration that replaces the start-up problem card.
///
/// `run` has them opened from the loop's first pass, right after the first frame went to the
/// display (`openLater`; registered after `FramePump`, whose `prepare` draws that frame): the
/// first frame does not wait for libinput's start, and no key is lost that would not have
/// been — devices plugged (or announced by udev) later are added as they come either way. They
/// open on a thread of their own (`InputOpening`) and join the loop when they are open: the
/// loop goes on drawing and pinging systemd's watchdog meanwhile (a cold Raspberry Pi's start
/// held the loop for 7 s and more, and the watchdog killed the kiosk: docs/start-up.md stop
/// 61). While the first frame's title is still being drawn on another thread, the opening
/// waits for the frame that shows it (`holdOpening`, docs/start-up.md stop 56).
final class InputDevicesComponent: KioskComponent {
    private(set) var inputs: [InputSource]
    /// Opens the devices once, in the first `prepare`; nil once done or when `inputs` were given.
    private var openLater: (() -> [InputSource])?
    private unowned let context: KioskContext
    /// The devices' descriptors in the reactor (after `attach`).
    private var watch: InputDescriptorWatch?
    /// Kernel input timestamps → the loop's clock.
    private var inputClock: InputClock
    /// Unix time of the last input event read.
    private var lastInputWallTime: Double?
    /// The devices opening on their own thread, and when that began (the reactor's clock).
    private var opening: (devices: InputOpening, began: Double)?
    /// A foreground program has the devices (`suspend`): those that arrive now are suspended too.
    private var suspended = false
    /// Opens the input devices again for the configuration that replaced the start-up problem
    /// card (`[input]` was not known when they were opened); nil: keep the devices open.
    var reopen: ((KioskConfiguration) -> [InputSource])?

    /// - Parameter openLater: opens the devices, called on a thread of its own from the loop's
    ///   first pass (after `inputs`, which are watched from the start).
    init(inputs: [InputSource], openLater: (() -> [InputSource])? = nil, context: KioskContext) {
        self.inputs = inputs
        self.openLater = openLater
        self.context = context
        inputClock = InputClock(start: context.reactor.start)
    }

    /// While true, the opening waits (the first frame's title is still being drawn on another
    /// thread, `TextDrawnAheadComponent`: the frame that shows it comes first), for at most
    /// `openingHoldLimit` seconds after the first pass. Nil: the first pass opens them.
    var holdOpening: (() -> Bool)?
    /// How long `holdOpening` can keep the devices closed.
    static let openingHoldLimit = 3.0
    /// When a held opening happens anyway (the reactor's time).
    private var openingDeadline: Double?

    /// The loop's first pass (or the first after `holdOpening` let go): `openLater` starts on its
    /// own thread (after the frame pump handed a frame to the display, or found it could not); the
    /// devices join the loop when they are open (`opened`).
    func prepare(now: Double) {
        guard openLater != nil else { return }
        if holdOpening?() == true {
            let deadline = openingDeadline ?? now + Self.openingHoldLimit
            openingDeadline = deadline
            if now < deadline { return }
        }
        openNow()
    }

    var nextDeadline: Double? { openLater == nil ? nil : openingDeadline }

    func deadlineReached(now: Double) {
        if openLater != nil { openNow() }
    }

    /// Starts the opening on its own thread; `opened` adds the devices when they are open. Opens
    /// them on the loop when no thread can be handed them (no eventfd).
    private func openNow() {
        guard let open = openLater else { return }
        openLater = nil
        openingDeadline = nil
        let began = context.reactor.clock()
        var devices: InputOpening?
        do {
            let started = try InputOpening(open: open)
            devices = started
            try context.reactor.watch(started.fd) { [unowned self] in self.opened() }
            opening = (started, began)
        } catch {
            // The thread, if it started, closes what it opens; these are opened here instead.
            devices?.abandon()
            context.logger.warning("input: cannot open the devices on a thread of their own (\(error)); opening them in the loop")
            add(open(), began: began, how: "in the loop")
        }
    }

    /// The opening's eventfd: its devices join the loop, told what happened meanwhile (the
    /// screen's size, a foreground program holding the devices).
    func opened() {
        guard let (devices, began) = opening, let sources = devices.take() else { return }
        context.reactor.unwatch(devices.fd)
        opening = nil
        add(sources, began: began, how: "on their own thread; the loop went on")
    }

    private func add(_ sources: [InputSource], began: Double, how: String) {
        let screen = context.display.fullSize
        if screen.width > 0 && screen.height > 0 {
            sources.forEach { $0.screenChanged(width: screen.width, height: screen.height) }
        }
        if suspended { sources.forEach { $0.suspend() } }
        inputs += sources
        try? sync()
        context.logger.info("input: \(inputs.count) source(s) opened \(String(format: "%.2f", context.reactor.clock() - began)) s, after the first frame (\(how))")
    }

    /// Stops an opening still under way: its devices are closed when they arrive.
    private func abandonOpening() {
        guard let (devices, _) = opening else { return }
        context.reactor.unwatch(devices.fd)
        devices.abandon()
        opening = nil
    }

    /// The eventfd of the devices opening on their own thread; nil when none are.
    var openingDescriptor: Int32? { opening?.devices.fd }

    func attach(to reactor: Reactor) throws {
        watch = InputDescriptorWatch(watcher: reactor) { [unowned self] fd in self.read(fd) }
        try sync()
    }

    /// Watches exactly the descriptors the devices have now (`InputDescriptorWatch`).
    func sync() throws {
        try watch?.sync(inputs)
    }

    /// Delivers what `fd` has, each event at its kernel time in the loop's clock (`InputClock`).
    func read(_ fd: Int32) {
        let t = context.now
        let latency = context.component(FramePump.self)?.latency
        for source in inputs where source.pollDescriptors.contains(fd) {
            for e in source.readTimed(fd: fd) {
                lastInputWallTime = context.wallClock()
                latency?.inputDelivered(kernelTime: e.time)
                context.input(e.event, now: inputClock.loopTime(ofKernelTime: e.time, now: t))
            }
        }
        try? sync()
    }

    /// A foreground program takes the devices. Watched again at once: a descriptor closed now
    /// must leave the reactor before its number can be given to anything else.
    func suspend() {
        suspended = true
        inputs.forEach { $0.suspend() }
        try? sync()
    }
    /// The kiosk takes them back (a device opened again has a new descriptor).
    func resume() {
        suspended = false
        inputs.forEach { $0.resume() }
        try? sync()
    }

    /// The fixed configuration replaced the problem card: the devices are opened for its `[input]`.
    func reopenFor(_ config: KioskConfiguration) {
        guard let reopen else { return }
        openLater = nil
        abandonOpening()
        inputs.forEach { $0.close() }
        inputs = reopen(config)
        try? sync()
    }

    /// Touch positions are in screen pixels whatever the render scale; with no screen the
    /// devices keep the last one's size.
    func displayChanged(width: Int, height: Int) {
        guard width > 0 && height > 0 else { return }
        inputs.forEach { $0.screenChanged(width: width, height: height) }
    }

    func report(into health: inout KioskHealth) {
        health.lastInputTime = lastInputWallTime
        health.inputDevices = inputs.reduce(0) { $0 + $1.deviceCount }
    }

    /// Closes the devices. An opening still under way is given `stopWaitLimit` seconds to end,
    /// so that what it opened (and grabbed) is closed before the process exits.
    func stop(now: Double) {
        if let (devices, began) = opening {
            if devices.wait(timeout: Self.stopWaitLimit) { opened() } else {
                context.logger.notice("input: stopping while the devices are still opening (after \(String(format: "%.1f", context.reactor.clock() - began)) s); their thread closes them")
            }
            abandonOpening()
        }
        inputs.forEach { $0.close() }
    }

    /// How long a stop waits for devices still opening.
    static let stopWaitLimit = 2.0
}
