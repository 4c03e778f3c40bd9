#if canImport(Glibc)
import Glibc
#endif

/// Something the reactor runs: what it does before each sleep, and when it must run next.
/// (sd-event's prepare and time sources in one: a source that only watches descriptors keeps
/// the defaults.) Its descriptors are watched with `Reactor.watch`.
public protocol ReactorSource: AnyObject {
    /// When the source must run next, in the reactor's time (`Reactor.now`); nil: nothing due.
    /// Asked before every sleep, after every `prepare`.
    var nextDeadline: Double? { get }
    /// Its `nextDeadline` came (the reactor's timer fired at or after it).
    func deadlineReached(now: Double)
    /// Runs before each sleep, in the order the sources were added (draw a frame, ping a
    /// watchdog, arm a tick).
    func prepare(now: Double)
}

public extension ReactorSource {
    var nextDeadline: Double? { nil }
    func deadlineReached(now: Double) {}
    func prepare(now: Double) {}
}

/// The program's one event loop: an `Epoll` over every descriptor that can wake it (a handler
/// each: a `DescriptorPoller`), one `TimerFD` armed for the earliest deadline of its sources, and the sources' work
/// before each sleep. Handlers and sources run on the loop's thread, one at a time; nothing
/// polls or busy-waits: with nothing due it sleeps in `epoll_wait` with no timeout.
///
/// Time is the reactor's `clock` less its start (`now`): tests and tools inject a clock.
public final class Reactor: DescriptorWatching {
    public typealias Handler = () -> Void
    private let descriptors: DescriptorPoller
    private var sources: [ReactorSource] = []
    private let timer: TimerFD
    /// The deadline `timer` is armed for.
    private var armedDeadline: Double?
    private var stopped = false
    /// The monotonic clock the reactor reads (seconds; `MonotonicClock.now` outside tests).
    public let clock: @Sendable () -> Double
    /// The clock's reading when the reactor was made: its time 0.
    public let start: Double
    /// How many times `epoll_wait` returned (a still kiosk wakes only for what it must do).
    public private(set) var wakeups = 0

    public init(clock: @escaping @Sendable () -> Double = MonotonicClock.now) throws {
        descriptors = try DescriptorPoller()
        timer = try TimerFD()
        self.clock = clock
        start = clock()
        try watch(timer.fd) { [unowned self] in self.timerFired() }
    }

    /// Seconds since the reactor was made.
    public var now: Double { clock() - start }

    /// Calls `handler` whenever `fd` is readable (level-triggered). Replaces an earlier handler.
    public func watch(_ fd: Int32, _ handler: @escaping Handler) throws {
        try watch(fd, events: .readable) { _ in handler() }
    }

    /// Calls `handler` with what is ready whenever `fd` is ready for `events` (errors and
    /// hang-ups are always reported). Replaces an earlier handler.
    public func watch(_ fd: Int32, events: Epoll.Events, _ handler: @escaping (Epoll.Events) -> Void) throws {
        try descriptors.watch(fd, events: events, handler)
    }

    /// Changes the events wanted on a watched `fd`.
    public func modify(_ fd: Int32, events: Epoll.Events) throws { try descriptors.modify(fd, events: events) }

    /// Stops watching `fd` (it may already be closed).
    public func unwatch(_ fd: Int32) { descriptors.unwatch(fd) }

    /// Adds `source`: it prepares and its deadlines fire after those added before it.
    public func add(_ source: ReactorSource) {
        sources.append(source)
    }

    /// One pass's work before the sleep: every source prepares, then the timer is armed for the
    /// earliest deadline (re-armed only when that moved, not on every pass).
    public func prepare() {
        for source in sources {
            source.prepare(now: now)
            if stopped { return }
        }
        armTimer()
    }

    /// Runs until `stop()`: prepare, sleep until a descriptor is readable or the earliest
    /// deadline, run the handlers. An interrupted wait (EINTR) prepares again.
    public func run() {
        stopped = false
        while !stopped {
            prepare()
            if stopped { break }
            do { try descriptors.dispatchReady(timeout: -1) { self.stopped } } catch { break }
            wakeups += 1
        }
    }

    /// Runs the handlers of the descriptors in `only` that are ready now (all when nil), without
    /// waiting and without the sources' work: for tests and tools that drive one part of a loop
    /// by hand. Level-triggered, so descriptors left out are reported again by the next wait.
    public func dispatchReady(only: Set<Int32>? = nil) {
        try? descriptors.dispatchReady(timeout: 0, only: only)
    }

    /// Makes `run` return after the current handler.
    public func stop() { stopped = true }

    /// The earliest deadline of the sources now.
    public var nextDeadline: Double? { sources.compactMap(\.nextDeadline).min() }

    private func armTimer() {
        let due = nextDeadline
        guard due != armedDeadline else { return }
        armedDeadline = due
        do {
            if let due { try timer.set(first: max(0.001, due - now)) } else { try timer.disarm() }
        } catch {
            // `timerfd_settime` cannot fail with a valid descriptor and a normalized value.
            assertionFailure("\(error)")
        }
    }

    /// The timer fired: every source whose deadline came runs.
    private func timerFired() {
        _ = timer.acknowledge()
        armedDeadline = nil  // fired: the next prepare arms it for whatever is due next
        runDue(tolerance: 0.0005)
    }

    /// Runs every source whose deadline is at most `tolerance` seconds after `now`, in the
    /// order they were added, at `now`. The live loop does it when its timer fires (0.5 ms: a
    /// timer a little early is on time); a driver on a virtual clock (`simulate`) does it at each
    /// step of its clock, with a tolerance of rounding only.
    public func runDue(tolerance: Double) {
        let t = now
        for source in sources {
            if let due = source.nextDeadline, due <= t + tolerance { source.deadlineReached(now: t) }
            if stopped { return }
        }
    }
}
