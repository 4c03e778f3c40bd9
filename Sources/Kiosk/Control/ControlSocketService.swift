import LinuxSystem
import Logging

/// The `[control]` socket as the kiosk's adopted configuration says: opened, moved to a new
/// path or closed when a configuration that changes `[control] socket` is adopted (`adopt`),
/// and its listening socket and clients watched in the loop's reactor while open.
///
/// A socket given up is closed at the start of the next loop pass (`closeRetired`), not at once:
/// the client whose `reload` moved it still gets its reply and the `reloaded` event on it.
final class ControlSocketService {
    /// The socket open now; nil: none configured (or it could not be opened at start).
    private(set) var server: ControlServer?
    /// Sockets given up in this pass, closed by `closeRetired`.
    private var retired: [ControlServer] = []
    private unowned let reactor: Reactor
    private let logger: Logger
    /// Answers the commands a socket received (`ControlServer.takeRequests`); set before the
    /// first `adopt`. A socket given up answers until it is closed.
    var handle: (ControlServer) -> Void = { _ in }

    init(reactor: Reactor, logger: Logger) {
        self.reactor = reactor
        self.logger = logger
    }

    /// Opens the socket at `path` (nil: none), replacing the one open at another path. Throws
    /// when the new socket cannot be made or watched; the one open before then stays.
    func adopt(_ path: String?) throws {
        guard path != server?.path else { return }
        var made: ControlServer?
        if let path {
            let new = try ControlServer(path: path, watcher: reactor)
            new.onRequests = { [unowned self, unowned new] in self.handle(new) }
            made = new
        }
        if let old = server {
            retired.append(old)
            logger.info(path == nil ? "control socket \(old.path) closed ([control] socket is not set)"
                                    : "control socket moved from \(old.path) to \(path!)")
        }
        server = made
    }

    /// Closes the sockets given up (call at the start of a loop pass).
    func closeRetired() {
        guard !retired.isEmpty else { return }
        retired.forEach { $0.close() }
        retired.removeAll()
    }

    /// At exit: every socket closed, its file removed.
    func close() {
        closeRetired()
        server?.close()
        server = nil
    }
}
