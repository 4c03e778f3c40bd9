import Glibc
import LinuxSystem

/// SIGTERM, SIGINT, SIGHUP and SIGCHLD read from a `SignalWatcher` in the loop, each handed to
/// the component that asked for it (`on`): the app stops on SIGTERM/SIGINT, `ConfigReload`
/// reloads on SIGHUP, `ActionsComponent` reaps on SIGCHLD.
final class SignalHandlers: KioskComponent {
    private let watcher: SignalWatcher
    private var handlers: [Int32: () -> Void] = [:]

    init() throws {
        watcher = try SignalWatcher()
    }

    /// Runs `handler` in the loop whenever `signal` arrives (replaces an earlier one).
    func on(_ signal: Int32, _ handler: @escaping () -> Void) {
        handlers[signal] = handler
    }

    func attach(to reactor: Reactor) throws {
        try reactor.watch(watcher.fd) { [unowned self] in
            for s in self.watcher.drain() { self.handlers[s]?() }
        }
    }
}
