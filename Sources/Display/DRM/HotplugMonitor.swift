#if canImport(Glibc)
import Glibc
#endif
import CUdev

/// Tells when connectors may have changed: the DRM backend re-probes its connector then.
protocol HotplugMonitor: AnyObject {
    /// The descriptor the main loop waits on.
    var fd: Int32 { get }
    /// Reads every pending notification; true when at least one concerns a DRM device.
    func receiveChanges() -> Bool
    /// Stops watching.
    func close()
}

/// Watches udev's `drm` subsystem (the kernel sends `change` with `HOTPLUG=1` on plug, unplug
/// and EDID change; `add`/`remove` when a card comes or goes) through a netlink monitor.
final class UdevHotplugMonitor: HotplugMonitor {
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    let fd: Int32

    /// Returns nil when udev is not available (no /run/udev, sandbox): hotplug is then off.
    init?() {
        guard let u = udev_new() else { return nil }
        guard let m = udev_monitor_new_from_netlink(u, "udev") else { udev_unref(u); return nil }
        udev_monitor_filter_add_match_subsystem_devtype(m, "drm", nil)
        guard udev_monitor_enable_receiving(m) == 0 else { udev_monitor_unref(m); udev_unref(u); return nil }
        let f = udev_monitor_get_fd(m)
        // The fd is non-blocking already (libudev sets SOCK_NONBLOCK); make sure of it.
        _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK)
        udev = u; monitor = m; fd = f
    }

    func receiveChanges() -> Bool {
        guard let monitor else { return false }
        var any = false
        while let dev = udev_monitor_receive_device(monitor) {
            if let s = udev_device_get_subsystem(dev), String(cString: s) == "drm" { any = true }
            udev_device_unref(dev)
        }
        return any
    }

    func close() {
        if let monitor { udev_monitor_unref(monitor) }
        if let udev { udev_unref(udev) }
        monitor = nil; udev = nil
    }

    deinit { close() }
}
