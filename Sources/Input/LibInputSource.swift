import CLibInput
import CLinux
import CUdev
import CarouselCore
import Glibc
import LinuxSystem
import Logging

private let log = Logger(label: "kiosk.input")

/// Touchscreens, mice, trackpads and keyboards through libinput: the udev backend on a seat
/// (hotplug included), or a fixed list of device paths through the path backend (a listed
/// device that is missing at start, or unplugged and plugged back, is added when udev reports
/// it). Touch positions come from `libinput_event_touch_get_x/y_transformed` at the panel size
/// (after libinput applied the calibration matrix), then the display rotation.
public final class LibInputSource: InputSource {
    private var options: InputOptions
    private var translator: DeviceEventTranslator
    private let queued: QueuedInput
    private var li: OpaquePointer?
    private var udev: OpaquePointer?
    private let libinputFD: Int32
    /// Path backend: the configured paths and the device each one is open as.
    private var pathDevices: [String: OpaquePointer] = [:]
    private let monitor: UdevMonitor?
    private var suspended = false
    private var deviceNames: [Int: String] = [:]
    /// Devices open now (for the metrics).
    public var deviceCount: Int { deviceNames.count }

    /// Opens libinput. Throws when libinput cannot start at all (no udev, a bad seat name);
    /// having no input device is fine.
    public init(options: InputOptions) throws {
        self.options = options
        translator = DeviceEventTranslator(
            mapping: ScreenMapping(panelWidth: options.panelWidth, panelHeight: options.panelHeight,
                                   rotation: options.rotation),
            keyMap: options.keyMap)
        if let c = options.calibration { _ = try CalibrationMatrix(c) }
        try InputLibraries.load()
        queued = try QueuedInput()
        if options.devices.isEmpty {
            guard let u = udev_new() else { throw InputDeviceError.setup("udev_new failed") }
            udev = u
            guard let ctx = libinput_udev_create_context(Self.interface, nil, u) else {
                udev_unref(u)
                throw InputDeviceError.setup("libinput_udev_create_context failed")
            }
            li = ctx
            monitor = nil
        } else {
            guard let ctx = libinput_path_create_context(Self.interface, nil) else {
                throw InputDeviceError.setup("libinput_path_create_context failed")
            }
            li = ctx
            // Paths that are missing now (or go away later) are added when udev reports them.
            monitor = try UdevMonitor()
        }
        kiosk_libinput_set_log_sink(li, libinputLogSink)
        libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO)
        libinputFD = libinput_get_fd(li)
        if udev != nil {
            guard libinput_udev_assign_seat(li, options.seat) == 0 else {
                close()
                throw InputDeviceError.setup("libinput cannot use seat \"\(options.seat)\" (libinput_udev_assign_seat failed; is udevd running?)")
            }
            log.info("input: libinput on seat \(options.seat) (udev backend, hotplug)")
        } else {
            if access("/run/udev/control", F_OK) != 0 {
                log.warning("input: udevd is not running; libinput refuses devices until it does")
            }
            for path in options.devices { addPathDevice(path) }
        }
        // Devices present at start are queued inside libinput already: have them read at once.
        queued.wake()
    }

    deinit { close() }

    /// libinput's descriptor (every device behind it), the udev monitor of the path backend, and
    /// the queue's eventfd: constant while the source is open.
    public var pollDescriptors: [Int32] {
        guard li != nil else { return [] }
        return [libinputFD] + (monitor.map { [$0.fd] } ?? []) + [queued.fd]
    }

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        guard let li, pollDescriptors.contains(fd) else { return [] }
        // Whichever is ready, the queue is taken (which drains its eventfd) and libinput
        // dispatched: work a wake asked for is done.
        var out = queued.take()
        if let monitor, fd == monitor.fd {
            for change in monitor.receive() where change.action == .add && !suspended {
                for path in options.devices where pathDevices[path] == nil && change.concerns(path: path) {
                    addPathDevice(path)
                }
            }
        }
        if libinput_dispatch(li) != 0 { log.warning("input: libinput_dispatch failed") }
        while let ev = libinput_get_event(li) {
            out += handle(ev)
            libinput_event_destroy(ev)
        }
        return out
    }

    /// Releases every device; fingers down are cancelled and held keys released, delivered by
    /// the next read (the descriptor becomes readable at once). The udev backend uses
    /// `libinput_suspend`; the path backend removes its devices (`libinput_path_remove_device`)
    /// and adds them again on `resume()`, because `libinput_resume` of the path backend fails as
    /// a whole when one listed device went away in between.
    public func suspend() {
        guard let li, !suspended else { return }
        suspended = true
        if udev != nil {
            libinput_suspend(li)
        } else {
            for path in pathDevices.keys.sorted() { removePathDevice(path) }
        }
        queued.enqueue(translator.releaseAll().map { TimedInputEvent(time: monotonicNow(), event: $0) })
        log.info("input: libinput suspended")
    }

    /// Opens the devices again (`libinput_resume`, or the listed paths that are there).
    public func resume() {
        guard let li, suspended else { return }
        suspended = false
        if udev != nil {
            if libinput_resume(li) != 0 { log.warning("input: libinput_resume failed") }
        } else {
            for path in options.devices where pathDevices[path] == nil { addPathDevice(path) }
        }
        queued.wake()
        log.info("input: libinput resumed")
    }

    /// The screen changed (hotplug, a new mode): positions map to the new size from now on.
    public func screenChanged(width: Int, height: Int) {
        options.setScreenSize(width: width, height: height)
        translator.mapping = ScreenMapping(panelWidth: options.panelWidth, panelHeight: options.panelHeight,
                                           rotation: options.rotation)
    }

    public func close() {
        guard let ctx = li else { return }
        for path in pathDevices.keys.sorted() { removePathDevice(path) }
        libinput_unref(ctx)
        li = nil
        if let u = udev { udev_unref(u); udev = nil }
    }

    // MARK: - Devices

    private func addPathDevice(_ path: String) {
        guard let li else { return }
        guard let node = resolveDeviceNode(path) else {
            log.info("input: \(path) is not there yet; waiting for it")
            return
        }
        guard let dev = libinput_path_add_device(li, node) else {
            log.warning("input: libinput cannot use \(path) (\(node)); see the message above")
            return
        }
        pathDevices[path] = libinput_device_ref(dev)
    }

    private func removePathDevice(_ path: String) {
        guard let dev = pathDevices.removeValue(forKey: path) else { return }
        libinput_path_remove_device(dev)
        libinput_device_unref(dev)
    }

    private func configure(_ dev: OpaquePointer) {
        let name = String(cString: libinput_device_get_name(dev))
        deviceNames[Self.id(dev)] = name
        var kinds: [String] = []
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { kinds.append("touch") }
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER) != 0 { kinds.append("pointer") }
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { kinds.append("keyboard") }
        let node = libinput_device_get_sysname(dev).map { "/dev/input/" + String(cString: $0) } ?? "?"
        log.info("input: device added: \(name) (\(node); \(kinds.isEmpty ? "nothing we use" : kinds.joined(separator: ", ")))")
        guard libinput_device_config_calibration_has_matrix(dev) != 0 else { return }
        if let c = options.calibration {
            var m = c.map { Float($0) }
            let status = libinput_device_config_calibration_set_matrix(dev, &m)
            if status != LIBINPUT_CONFIG_STATUS_SUCCESS {
                log.warning("input: \(name): calibration matrix not accepted")
            } else {
                log.info("input: \(name): calibration \(c) (replaces the device default)")
            }
        } else {
            var m = [Float](repeating: 0, count: 6)
            if libinput_device_config_calibration_get_default_matrix(dev, &m) != 0 {
                log.info("input: \(name): calibration from udev LIBINPUT_CALIBRATION_MATRIX \(m)")
            }
        }
    }

    private static func id(_ dev: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(dev)) }

    // MARK: - Events

    private func handle(_ ev: OpaquePointer) -> [TimedInputEvent] {
        let type = libinput_event_get_type(ev)
        guard let dev = libinput_event_get_device(ev) else { return [] }
        let device = Self.id(dev)
        let w = UInt32(max(options.panelWidth, 1)), h = UInt32(max(options.panelHeight, 1))
        var time = 0.0
        var raw: [RawDeviceEvent] = []
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            configure(dev)
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            log.info("input: device removed: \(deviceNames.removeValue(forKey: device) ?? "?")")
            // A listed device that went away: forget it (also in libinput's own list), so that it
            // is added afresh when it comes back.
            for (path, d) in pathDevices where Self.id(d) == device { removePathDevice(path) }
            raw = [.deviceRemoved(device: device)]
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let t = libinput_event_get_touch_event(ev)
            time = Double(libinput_event_touch_get_time_usec(t)) / 1e6
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            switch type {
            case LIBINPUT_EVENT_TOUCH_DOWN:
                raw = [.touchDown(device: device, slot: slot, panelX: libinput_event_touch_get_x_transformed(t, w),
                                  panelY: libinput_event_touch_get_y_transformed(t, h))]
            case LIBINPUT_EVENT_TOUCH_MOTION:
                raw = [.touchMotion(device: device, slot: slot, panelX: libinput_event_touch_get_x_transformed(t, w),
                                    panelY: libinput_event_touch_get_y_transformed(t, h))]
            case LIBINPUT_EVENT_TOUCH_UP: raw = [.touchUp(device: device, slot: slot)]
            default: raw = [.touchCancel(device: device, slot: slot)]
            }
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON,
             LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER,
             LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            // (The legacy LIBINPUT_EVENT_POINTER_AXIS duplicates the scroll events and is ignored.)
            let p = libinput_event_get_pointer_event(ev)
            time = Double(libinput_event_pointer_get_time_usec(p)) / 1e6
            raw = pointerEvents(type, p, width: w, height: h)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(ev)
            time = Double(libinput_event_keyboard_get_time_usec(k)) / 1e6
            raw = [.key(code: UInt16(truncatingIfNeeded: libinput_event_keyboard_get_key(k)),
                        pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                        seatCount: libinput_event_keyboard_get_seat_key_count(k))]
        default:
            break
        }
        if raw.isEmpty { return [] }
        if time == 0 { time = monotonicNow() }
        return raw.flatMap { translator.translate($0) }.map { TimedInputEvent(time: time, event: $0) }
    }

    private func pointerEvents(_ type: libinput_event_type, _ p: OpaquePointer?, width w: UInt32,
                               height h: UInt32) -> [RawDeviceEvent] {
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            return [.pointerMotion(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p))]
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            return [.pointerAbsolute(panelX: libinput_event_pointer_get_absolute_x_transformed(p, w),
                                     panelY: libinput_event_pointer_get_absolute_y_transformed(p, h))]
        case LIBINPUT_EVENT_POINTER_BUTTON:
            return [.pointerButton(code: UInt16(truncatingIfNeeded: libinput_event_pointer_get_button(p)),
                                   pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                                   seatCount: libinput_event_pointer_get_seat_button_count(p))]
        default:
            return [LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL]
                .filter { libinput_event_pointer_has_axis(p, $0) != 0 }
                .map { axis in
                    type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL
                        ? .scrollWheel(v120: libinput_event_pointer_get_scroll_value_v120(p, axis))
                        : .scrollContinuous(value: libinput_event_pointer_get_scroll_value(p, axis))
                }
        }
    }

    // MARK: - libinput's interface

    /// `open_restricted`/`close_restricted`: libinput asks us to open device nodes, so a seat
    /// manager could hand them out; the kiosk opens them itself (root or the `input` group).
    private static let interface: UnsafeMutablePointer<libinput_interface> = {
        let p = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        p.initialize(to: libinput_interface(
            open_restricted: { path, flags, _ in
                guard let path else { return -EINVAL }
                // Read-only whatever libinput asks for (it asks O_RDWR, for keyboard LEDs): the
                // unit allows input devices read-only (`DeviceAllow=char-input r`), and the
                // device cgroup refuses a read-write open with EPERM (docs/systemd.md).
                let fd = open(path, (flags & ~O_ACCMODE) | O_RDONLY | O_CLOEXEC)
                if fd < 0 {
                    let e = errno
                    if e == ENOENT || e == ENODEV {
                        // Unplugged between udev's report and this open (a device that comes and
                        // goes while the kiosk starts): libinput skips it; nothing to warn about.
                        log.debug("input: \(String(cString: path)) went away before it could be opened")
                        return -e
                    }
                    let hint = e == EACCES ? " (run as root or add the user to the \"input\" group)" : ""
                    log.warning("input: cannot open \(String(cString: path)): \(SystemCallError.message(for: e))\(hint)")
                    return -e
                }
                return fd
            },
            close_restricted: { fd, _ in _ = Glibc.close(fd) }))
        return p
    }()
}

/// libinput's log messages, into our log. The message arrives formatted by the C shim
/// (`kiosk_libinput_log_format`): a Swift closure taking the `va_list` crashes the compiler for aarch64.
private let libinputLogSink: kiosk_libinput_log_sink = { priority, message in
    guard let message else { return }
    let text = "libinput: " + String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    switch priority {
    case LIBINPUT_LOG_PRIORITY_ERROR: log.error("\(text)")
    default: log.debug("\(text)")
    }
}
