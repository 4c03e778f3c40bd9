import CEvdev
import CLinux
import Foundation
import Glibc
import LinuxSystem
import Logging

private let log = Logger(label: "kiosk.input")

/// Every `/dev/input/event*` that has a capability (`wants`), opened read-only with libevdev and
/// never grabbed (whoever else reads the device — libinput, a sound server, a foreground
/// program — still gets every event): all of them at `openAll()`, and each one udev adds while
/// open; a node removed or failing is closed. What `HeadphoneJackSource` (the jack's switch) and
/// `KeyWatchSource` (keys read beside a foreground program) are made of.
final class EvdevNodeWatch {
    /// One open node.
    struct Node {
        var device: OpaquePointer
        var fd: Int32
        var path: String
    }
    private(set) var nodes: [Node] = []
    private let monitor: UdevMonitor
    private let inputDirectory: String
    /// What is watched, for the log ("headphone jack").
    let what: String
    private let wants: (OpaquePointer) -> Bool
    /// Called with each node opened (e.g. to report the state it has now).
    var opened: ((Node) -> Void)?
    /// Changes whenever a descriptor is opened or closed (`InputSource.descriptorGeneration`).
    private(set) var generation = 0
    /// Between `openAll()` and `closeAll()`: nodes udev adds are opened too.
    private(set) var isOpen = false

    /// - Parameters:
    ///   - inputDirectory: where the event nodes are looked for.
    ///   - what: what the nodes are, for the log.
    ///   - wants: true for a device that has what is watched (`libevdev_has_event_code`).
    init(inputDirectory: String = "/dev/input", what: String, wants: @escaping (OpaquePointer) -> Bool) throws {
        self.inputDirectory = inputDirectory
        self.what = what
        self.wants = wants
        try InputLibraries.load()
        monitor = try UdevMonitor()
    }

    deinit { closeAll() }

    /// Where added devices are heard from ("udev" or "kernel").
    var eventSource: String { monitor.source }
    /// The udev monitor's and every open node's descriptor.
    var descriptors: [Int32] { [monitor.fd] + nodes.map(\.fd) }

    /// Opens every node there now that has the capability.
    func openAll() {
        isOpen = true
        let names = (try? FileManager.default.contentsOfDirectory(atPath: inputDirectory)) ?? []
        for n in names.filter({ $0.hasPrefix("event") }).sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) {
            open(path: inputDirectory + "/" + n)
        }
    }

    /// Closes every node; added ones are ignored until `openAll()`.
    func closeAll() {
        isOpen = false
        while !nodes.isEmpty { close(at: nodes.count - 1, reason: nil) }
    }

    /// Handles what `fd` has: devices added or removed (the monitor's), or a node's events, each
    /// given to `event` (after a `SYN_DROPPED`, libevdev's resync gives the state as it is now).
    func read(fd: Int32, event: (input_event) -> Void) {
        if fd == monitor.fd {
            for change in monitor.receive() { handle(change) }
        } else if let i = nodes.firstIndex(where: { $0.fd == fd }) {
            read(at: i, event: event)
        }
    }

    private func handle(_ change: DeviceChange) {
        guard let path = change.devnode, (path as NSString).lastPathComponent.hasPrefix("event") else { return }
        switch change.action {
        case .add:
            if isOpen && !nodes.contains(where: { $0.path == path }) { open(path: path) }
        case .remove:
            if let i = nodes.firstIndex(where: { $0.path == path }) { close(at: i, reason: "removed") }
        default:
            break
        }
    }

    /// Opens `path` if its device has the capability.
    private func open(path: String) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }   // not ours to read (permissions are the other sources' to report)
        var dev: OpaquePointer?
        guard libevdev_new_from_fd(fd, &dev) == 0, let dev else {
            Glibc.close(fd)
            return
        }
        guard wants(dev) else {
            libevdev_free(dev); Glibc.close(fd)
            return
        }
        _ = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        let node = Node(device: dev, fd: fd, path: path)
        nodes.append(node)
        generation += 1
        opened?(node)
    }

    private func close(at i: Int, reason: String?) {
        let n = nodes.remove(at: i)
        libevdev_free(n.device)
        Glibc.close(n.fd)
        generation += 1
        if let reason { log.info("input: \(what) \(n.path) \(reason)") }
    }

    private func read(at i: Int, event: (input_event) -> Void) {
        let dev = nodes[i].device
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(dev, flags, &ev)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue { flags = LIBEVDEV_READ_FLAG_SYNC.rawValue }
                event(ev)
            } else if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue; continue }
                break
            } else {
                close(at: i, reason: rc == -ENODEV ? "removed" : "failed (\(SystemCallError.message(for: -rc)))")
                break
            }
        }
    }
}

extension input_event {
    /// The kernel's timestamp in seconds (on `CLOCK_MONOTONIC`: `EvdevNodeWatch` sets it).
    var seconds: Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
}
