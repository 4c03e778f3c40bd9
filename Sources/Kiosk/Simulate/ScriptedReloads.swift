import Logging

/// `simulate --reload T=FILE`: the config file loaded again at a virtual time, as SIGHUP would (a
/// bad file is reported and the running configuration kept). Read in line: the virtual clock
/// stands still meanwhile.
final class ScriptedReloads: KioskComponent {
    private let behavior: KioskBehavior
    private let logger: Logger
    private var pending: ArraySlice<(time: Double, path: String)>

    init(_ reloads: [(time: Double, path: String)], behavior: KioskBehavior, logger: Logger) {
        self.behavior = behavior
        self.logger = logger
        pending = reloads.sorted { $0.time < $1.time }[...]
    }

    var nextDeadline: Double? { pending.first?.time }

    func deadlineReached(now: Double) {
        while let r = pending.first, r.time <= now + Simulator.tolerance {
            pending = pending.dropFirst()
            behavior.reload(path: r.path, reason: "--reload", now: now, logger: logger)
        }
    }
}
