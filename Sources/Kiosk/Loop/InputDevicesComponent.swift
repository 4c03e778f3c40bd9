import Input
import KioskConfig
import LinuxSystem

/// The input devices in the loop: their descriptors (which change with hotplug) watched, each
/// event delivered at its kernel time in the loop's clock (`InputClock`) to the behaviour, the
/// touch mapping told of every new screen size, the devices handed to a foreground program and
/// taken back, and opened again for the configuration that replaces the start-up problem card.
final class InputDevicesComponent: KioskComponent {
    private(set) var inputs: [InputSource]
    private let context: KioskContext
    private var reactor: Reactor?
    private var watchedFDs: [Int32] = []
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
        self.reactor = reactor
        try sync()
    }

    /// Watches exactly the descriptors the devices have now.
    func sync() throws {
        guard let reactor else { return }
        try reactor.sync(inputs.flatMap(\.pollDescriptors), previous: &watchedFDs) { fd in
            { [unowned self] in self.read(fd) }
        }
    }

    /// Delivers what `fd` has, each event at its kernel time in the loop's clock (`InputClock`).
    func read(_ fd: Int32) {
        let t = context.now
        let latency = context.component(FramePump.self)?.latency
        for source in inputs where source.pollDescriptors.contains(fd) {
            for e in source.readTimed(fd: fd) {
                lastInputWallTime = context.wallClock()
                latency?.inputDelivered(kernelTime: e.time)
                context.behavior.input(e.event, now: inputClock.loopTime(ofKernelTime: e.time, now: t))
            }
        }
        try? sync()
    }

    /// A foreground program takes the devices.
    func suspend() { inputs.forEach { $0.suspend() } }
    /// The kiosk takes them back.
    func resume() { inputs.forEach { $0.resume() } }

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
