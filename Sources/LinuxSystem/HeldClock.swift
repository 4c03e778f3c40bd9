import Synchronization

/// A monotonic clock that leaves out the time it was told to hold: its reading is the base
/// clock's minus every held stretch, so what happens while a program pauses its own time (a
/// screenshot taken, another program given the screen) does not count. `display-test` gives
/// one to its `Reactor` (`Reactor(clock: clock.now)`): the reactor's time is then the virtual
/// time its scene runs on.
public final class HeldClock: Sendable {
    private let base: @Sendable () -> Double
    private let held = Mutex(0.0)

    /// A clock over `base` (seconds; `MonotonicClock.now` outside tests) with nothing held yet.
    public init(base: @escaping @Sendable () -> Double = { MonotonicClock.now() }) {
        self.base = base
    }

    /// The base clock's reading less all the time held so far.
    @Sendable public func now() -> Double { base() - held.withLock { $0 } }

    /// Every second left out so far.
    public var heldSeconds: Double { held.withLock { $0 } }

    /// Leaves `seconds` out of the clock from now on: it reads that much less (a stretch that
    /// has just passed does not count). Negative values are refused: the clock never goes back
    /// by less than nothing, nor forward.
    public func hold(_ seconds: Double) {
        precondition(seconds >= 0 && seconds.isFinite, "HeldClock.hold(\(seconds)): not a duration")
        held.withLock { $0 += seconds }
    }

    /// Sets the clock back to `reading` (an earlier reading of this clock): the time since then
    /// does not count. Nothing is held when `reading` is not in the past.
    public func rewind(to reading: Double) {
        hold(max(0, now() - reading))
    }
}
