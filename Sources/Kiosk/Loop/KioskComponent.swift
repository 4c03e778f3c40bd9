import CarouselCore
import KioskConfig
import LinuxSystem

/// One concern of the running kiosk (idle blanking, the schedule, the metrics file, the control
/// socket…): it owns its state, watches its own descriptors (`attach`), says when it must run
/// next (`nextDeadline`, `deadlineReached`) and what it does before each sleep (`prepare`), and
/// hears what the kiosk tells every component. Registered once, in `KioskApp.init`; the loop
/// (`Reactor`) asks every component and sleeps until the earliest. Every requirement but the
/// reactor's has a default that does nothing: a component implements what it needs.
///
/// The context holds the components; a component holds the context (and the reactor)
/// `unowned`, so that a kiosk let go frees them all (`KioskAppLifetimeTests`).
protocol KioskComponent: ReactorSource {
    /// Watches the component's descriptors in `reactor` (called once, before the loop runs).
    func attach(to reactor: Reactor) throws
    /// A configuration the kiosk adopted: a reload applied, or the fixed file that replaced the
    /// start-up problem card (what it started with is given to the component's `init`).
    func configAdopted(_ config: KioskConfiguration)
    /// A person's input event, before the behaviour takes it (speech stops at once on a press).
    func inputReceived(_ event: InputEvent, now: Double)
    /// A frame of the carousel reached the display.
    func framePresented(_ frame: PresentedFrame)
    /// The display refused a frame of the carousel (`DisplayBackend.present` threw).
    func frameFailed(_ error: Error)
    /// The screen's size changed (hotplug, a new mode, a new render scale); width and height 0:
    /// no screen.
    func displayChanged(width: Int, height: Int)
    /// True while the component keeps the carousel's frames off the screen (the idle blank, a
    /// foreground program).
    var holdsFrames: Bool { get }
    /// Adds the component's facts to `health` (the metrics file, `state`).
    func report(into health: inout KioskHealth)
    /// Files the component wants watched (absolute paths; the config file's folder watcher
    /// `WatchedFiles` watches them) and hears when they change.
    var watchedFiles: [String] { get }
    func filesChanged(_ paths: Set<String>)
    /// The loop ended: the component lets go of what it holds (children, sockets, files).
    func stop(now: Double)
}

extension KioskComponent {
    func attach(to reactor: Reactor) throws {}
    func configAdopted(_ config: KioskConfiguration) {}
    func inputReceived(_ event: InputEvent, now: Double) {}
    func framePresented(_ frame: PresentedFrame) {}
    func frameFailed(_ error: Error) {}
    func displayChanged(width: Int, height: Int) {}
    var holdsFrames: Bool { false }
    func report(into health: inout KioskHealth) {}
    var watchedFiles: [String] { [] }
    func filesChanged(_ paths: Set<String>) {}
    func stop(now: Double) {}
}

/// A frame the frame pump presented (`FramePump`).
public struct PresentedFrame: Sendable {
    /// The reactor's clock (monotonic seconds) when drawing began.
    public var time: Double
    /// Seconds spent drawing and handing it to the display.
    public var duration: Double
    /// Frames presented since start, this one included.
    public var count: Int
    /// The scene had changed (`CarouselSession.needsFrame`); false: drawn only because the
    /// display asked for a frame (`DisplayBackend.wantsFrame`: after a handover, a new buffer).
    public var sceneChanged: Bool

    public init(time: Double, duration: Double, count: Int, sceneChanged: Bool = true) {
        self.time = time
        self.duration = duration
        self.count = count
        self.sceneChanged = sceneChanged
    }
}
