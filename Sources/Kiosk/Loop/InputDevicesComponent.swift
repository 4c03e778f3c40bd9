import Input
import KioskConfig
import LinuxSystem

/// The input devices in the loop: their descriptors (which change with hotplug) watched, each
/// event delivered at its kernel time in the loop's clock (`InputClock`) to the behaviour, the
/// touch mapping told of every new screen size, the devices handed to a foreground program and
/// taken back, and opened again for the configuration that replaces the start-up problem card.
final class InputDevicesComponent: KioskComponent {
    private(set) var inputs: [InputSource]
    private unowned let context: KioskContext
    /// The devices' descriptors in the reactor (after `attach`).
    private var watch: InputDescriptorWatch?
    /// Kernel input timestamps → the loop's clock.
    private var inputClock: InputClock
    /// Unix time of the last input event read.
    private var lastInputWallTime: Double?
    /// Opens the input devices again for the configuration that replaced the start-up problem
    /// card (`[input]` was not known when they were opened); nil: keep the devices open.
    var reopen: ((KioskConfiguration) -> [InputSource])?

    init(inputs: [InputSource], context: KioskContext) {
        self.inputs = inputs
        self.context = context
        inputClock = InputClock(start: context.reactor.start)
    }

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
        inputs.forEach { $0.suspend() }
        try? sync()
    }
    /// The kiosk takes them back (a device opened again has a new descriptor).
    func resume() {
        inputs.forEach { $0.resume() }
        try? sync()
    }

    /// The fixed configuration replaced the problem card: the devices are opened for its `[input]`.
    func reopenFor(_ config: KioskConfiguration) {
        guard let reopen else { return }
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

    func stop(now: Double) { inputs.forEach { $0.close() } }
}
