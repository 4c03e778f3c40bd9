import CUdev
import Glibc

/// One device that appeared or went away, as a udev (or kernel) uevent reports it.
struct DeviceChange: Equatable {
    enum Action: String { case add, remove, change, other }
    var action: Action
    /// `/dev/input/eventN`, when the device has a node.
    var devnode: String?
    /// The node's symlinks (`/dev/input/by-path/...`, `/dev/input/by-id/...`).
    var devlinks: [String]
}

/// Watches the `input` subsystem for devices that come and go (`udev_monitor`). With udevd
/// running it listens to udev's events, sent after rules ran (symlinks made, permissions set,
/// database filled, which libinput needs); without udevd it falls back to the kernel's own
/// uevents (the node exists by then: devtmpfs makes it before the uevent is sent).
final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// The monitor's socket, non-blocking; readable when changes are pending.
    let fd: Int32
    /// "udev" or "kernel".
    let source: String

    init(subsystem: String = "input") throws {
        guard let u = udev_new() else { throw InputDeviceError.setup("udev_new failed (out of memory?)") }
        let name = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel"
        guard let m = udev_monitor_new_from_netlink(u, name) else {
            udev_unref(u)
            throw InputDeviceError.setup("cannot listen to \(name) device events (udev_monitor_new_from_netlink)")
        }
        udev_monitor_filter_add_match_subsystem_devtype(m, subsystem, nil)
        guard udev_monitor_enable_receiving(m) >= 0 else {
            udev_monitor_unref(m); udev_unref(u)
            throw InputDeviceError.setup("cannot receive \(name) device events (udev_monitor_enable_receiving)")
        }
        udev = u; monitor = m; source = name
        fd = udev_monitor_get_fd(m)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Every change pending on the socket, oldest first (never blocks).
    func receive() -> [DeviceChange] {
        var out: [DeviceChange] = []
        while let dev = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(dev) }
            let action = udev_device_get_action(dev).map { String(cString: $0) } ?? ""
            var links: [String] = []
            var entry = udev_device_get_devlinks_list_entry(dev)
            while let e = entry {
                if let n = udev_list_entry_get_name(e) { links.append(String(cString: n)) }
                entry = udev_list_entry_get_next(e)
            }
            out.append(DeviceChange(action: DeviceChange.Action(rawValue: action) ?? .other,
                                    devnode: udev_device_get_devnode(dev).map { String(cString: $0) },
                                    devlinks: links))
        }
        return out
    }
}

/// The device node a path leads to (`realpath`), or nil when it does not exist (yet).
func resolveDeviceNode(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
}

extension DeviceChange {
    /// Whether this change is about the device that `path` names (its node or one of its links).
    func concerns(path: String) -> Bool {
        guard let node = devnode else { return false }
        return node == path || devlinks.contains(path) || resolveDeviceNode(path) == node
    }
}
