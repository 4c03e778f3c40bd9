import Glibc
import LinuxSystem

/// Clips in the kiosk's loop without the engine's tick: each playing clip's player signals an
/// eventfd when it decoded a frame or ended or failed, and the loop watches it; the next frame's
/// time (and a clip's start after `start_delay`) is this component's deadline. So a clip playing
/// on a resting carousel wakes the loop once per frame it shows, not at `tick_hz`.
///
/// Each player's eventfd is watched through a duplicate of its own (`dup`): the number stays this
/// component's until it lets it go, whenever the player's thread closes the original.
final class VideoFrames: KioskComponent {
    private unowned let context: KioskContext
    /// The players watched, each with its duplicated eventfd.
    private var watched: [(player: ObjectIdentifier, fd: FileDescriptor)] = []

    init(context: KioskContext) { self.context = context }

    /// Watches the players playing now (a clip starts or ends inside a tick or an update).
    func prepare(now: Double) { sync() }

    var nextDeadline: Double? { context.behavior.video.nextUpdate(now: context.now) }

    func deadlineReached(now: Double) { context.behavior.updateVideo(now: now) }

    func stop(now: Double) { unwatchAll() }

    private func sync() {
        let sources = context.behavior.video.wakeSources
        guard sources.map(\.player) != watched.map(\.player) else { return }
        unwatchAll()
        for source in sources {
            let copy = fcntl(source.fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else {
                context.logger.warning("video: cannot watch the player's eventfd (\(SystemCallError(call: "fcntl(F_DUPFD_CLOEXEC)"))); its frames follow the engine's tick only")
                continue
            }
            let fd = FileDescriptor(owning: copy)
            do {
                try context.reactor.watch(fd.raw) { [unowned self] in self.playersWoke() }
                watched.append((source.player, fd))
            } catch {
                context.logger.warning("video: cannot watch the player's eventfd (\(error))")
            }
        }
    }

    /// A player has news: its eventfd cleared first, then the news taken (a frame queued after
    /// the clear signals again).
    private func playersWoke() {
        context.behavior.video.drainWakes()
        context.behavior.updateVideo(now: context.now)
        sync()
    }

    private func unwatchAll() {
        for w in watched {
            context.reactor.unwatch(w.fd.raw)
            w.fd.close()
        }
        watched = []
    }
}
