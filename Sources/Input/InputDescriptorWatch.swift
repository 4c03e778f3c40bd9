import LinuxSystem

/// Keeps the descriptors of input sources watched in a loop (`DescriptorWatching`: the
/// program's `Reactor`) as devices come and go: `sync()` after every read, suspend and resume
/// watches exactly what the sources have now, and all of it anew when a source's
/// `descriptorGeneration` says a descriptor was closed or opened (a new device can get a closed
/// one's number, which left the epoll set when it was closed). Used by the kiosk's input
/// component and by `record`.
public final class InputDescriptorWatch {
    private unowned let watcher: DescriptorWatching
    private let read: (Int32) -> Void
    private var watched: [Int32] = []
    private var generation = 0

    /// `read` is called with each ready descriptor.
    public init(watcher: DescriptorWatching, read: @escaping (Int32) -> Void) {
        self.watcher = watcher
        self.read = read
    }

    /// Watches exactly the descriptors of `sources` now.
    public func sync(_ sources: [InputSource]) throws {
        let now = sources.reduce(0) { $0 + $1.descriptorGeneration }
        if now != generation {
            generation = now
            for fd in watched { watcher.unwatch(fd) }
            watched = []
        }
        let fds = sources.flatMap(\.pollDescriptors)
        for fd in watched where !fds.contains(fd) { watcher.unwatch(fd) }
        for fd in fds where !watched.contains(fd) {
            try watcher.watch(fd, events: .readable) { [read] _ in read(fd) }
        }
        watched = fds
    }

    /// Stops watching every descriptor.
    public func stop() {
        for fd in watched { watcher.unwatch(fd) }
        watched = []
    }
}
