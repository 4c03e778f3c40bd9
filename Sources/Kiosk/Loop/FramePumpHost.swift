import Display
import Foundation
import LinuxSystem
import Logging

/// What a tool that drives its own scene on a `Reactor` (display-test) hears from the kiosk's
/// frame pump, and what it says to it: a `ReactorSource` that runs before the pump draws, plus
/// the hooks a kiosk component has for frames and the screen.
public protocol FramePumpClient: ReactorSource {
    /// True while the client keeps the pump from drawing (it shows a frame of its own).
    var holdsFrames: Bool { get }
    /// The pump presented a frame of the scene.
    func framePresented(_ frame: PresentedFrame)
    /// The display refused a frame of the scene.
    func frameFailed(_ error: Error)
    /// The screen changed (the scene was sized again); width and height 0: the screen went away.
    func displayChanged(width: Int, height: Int)
}

/// The kiosk's display events and frame pump (`DisplayEvents`, `FramePump`) around a scene a
/// tool drives itself: `display-test` steps `Simulator`'s session on the reactor's clock and
/// lets the pump draw and present it as the kiosk does. Registers, in the order they prepare
/// before each sleep: the display's events and timers, `client`, the frame pump, `afterFrame`.
/// The display's times are compared with the monotonic clock, whatever the reactor's is.
public final class FramePumpHost {
    private let context: KioskContext

    public init(behavior: KioskBehavior, display: DisplayBackend, reactor: Reactor,
                logger: Logger, client: FramePumpClient, afterFrame: ReactorSource) {
        context = KioskContext(behavior: behavior, display: display, reactor: reactor,
                               logger: logger, wallClock: { WallClockTime.now() },
                               displayClock: { MonotonicClock.now() })
        context.register(DisplayEvents(context: context))
        context.register(FramePumpClientComponent(client))
        context.register(FramePump(context: context))
        reactor.add(afterFrame)
    }

    /// Watches the display's descriptors in the reactor (call once, before it runs).
    public func attach() throws {
        for component in context.components { try component.attach(to: context.reactor) }
    }

    /// Frames the pump presented so far.
    public var framesPresented: Int { context.component(FramePump.self)?.framesPresented ?? 0 }
}

/// A `FramePumpClient` as a kiosk component.
private final class FramePumpClientComponent: KioskComponent {
    private let client: FramePumpClient

    init(_ client: FramePumpClient) { self.client = client }

    var nextDeadline: Double? { client.nextDeadline }
    func deadlineReached(now: Double) { client.deadlineReached(now: now) }
    func prepare(now: Double) { client.prepare(now: now) }
    var holdsFrames: Bool { client.holdsFrames }
    func framePresented(_ frame: PresentedFrame) { client.framePresented(frame) }
    func frameFailed(_ error: Error) { client.frameFailed(error) }
    func displayChanged(width: Int, height: Int) { client.displayChanged(width: width, height: height) }
}
