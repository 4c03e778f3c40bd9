import CEvdev
import CLinux
import CarouselCore
import Foundation
import Glibc
import LinuxSystem
import Logging

private let log = Logger(label: "kiosk.input")

/// A rotary encoder knob read directly with libevdev (libinput ignores bare encoders and
/// `REL_DIAL`). The device is found by path (`/dev/input/by-path/...` or a node) or by its
/// kernel name among `/dev/input/event*`; it may appear after start, go away and come back
/// (watched with a udev monitor). While open it is grabbed (`EVIOCGRAB`) so libinput does not
/// also turn its wheel or button into pointer or key events.
public final class RotaryEncoderSource: InputSource {
    private let options: RotaryOptions
    private var decoder: RotaryDecoder
    private let queued: QueuedInput
    private let monitor: UdevMonitor
    private var device: OpaquePointer?
    private var deviceFD: Int32 = -1
    private var deviceNode: String?
    private var suspended = false
    private var closed = false
    /// Event nodes that could not be opened for lack of permission in the last name search.
    private var deniedNodes = 0
    /// Where `name` is looked for.
    private let inputDirectory = "/dev/input"

    /// Starts watching for the knob and opens it when it is there. Throws only when the
    /// options name no device or udev cannot be watched.
    public init(options: RotaryOptions) throws {
        guard options.device != nil || options.name != nil else {
            throw InputConfigError("\(options.table) needs device = \"/dev/input/...\" or name = \"...\"")
        }
        self.options = options
        decoder = RotaryDecoder(axis: options.axis, invert: options.invert, selectKeyCode: options.selectKeyCode)
        try InputLibraries.load()
        queued = try QueuedInput()
        monitor = try UdevMonitor()
        if !openMatching() {
            log.info("input: \(options.label) \(describe) is not there yet; waiting for it (udev events from \(monitor.source))")
        }
    }

    deinit { close() }

    /// Whether the knob is open now.
    public var isOpen: Bool { device != nil }
    public var deviceCount: Int { device != nil ? 1 : 0 }

    /// The udev monitor, the queue's eventfd and the knob's device while it is open: the device's
    /// descriptor changes when the knob comes and goes (`descriptorGeneration` counts it).
    public var pollDescriptors: [Int32] { closed ? [] : [monitor.fd, queued.fd] + (deviceFD >= 0 ? [deviceFD] : []) }

    /// Counts the knob's device opened and closed (a new one may get the old one's number).
    public private(set) var descriptorGeneration = 0

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        guard !closed else { return [] }
        var out = queued.take()
        if fd == monitor.fd {
            for change in monitor.receive() { out += handle(change) }
        } else if fd == deviceFD {
            out += readDevice()
        }
        return out
    }

    /// Releases the grab and closes the knob; a held button is released (next read).
    public func suspend() {
        guard !suspended, !closed else { return }
        suspended = true
        queued.enqueue(closeDevice(reason: "suspended"))
    }

    /// Opens and grabs the knob again (if it is there).
    public func resume() {
        guard suspended, !closed else { return }
        suspended = false
        _ = openMatching()
    }

    public func close() {
        guard !closed else { return }
        _ = closeDevice(reason: nil)
        closed = true
    }

    // MARK: - Finding and opening

    private var describe: String {
        if let d = options.device { return "at \(d)" }
        return "named \"\(options.name ?? "")\""
    }

    private func handle(_ change: DeviceChange) -> [TimedInputEvent] {
        switch change.action {
        case .add:
            guard device == nil, !suspended, let node = change.devnode, isEventNode(node) else { return [] }
            if let path = options.device {
                if change.concerns(path: path) { _ = open(node: node) }
            } else {
                _ = open(node: node)
            }
            return []
        case .remove:
            guard let node = change.devnode, node == deviceNode else { return [] }
            return closeDevice(reason: "removed")
        default:
            return []
        }
    }

    private func isEventNode(_ node: String) -> Bool {
        (node as NSString).lastPathComponent.hasPrefix("event")
    }

    /// Opens the configured device, or searches the event nodes for the name.
    private func openMatching() -> Bool {
        if let path = options.device {
            guard let node = resolveDeviceNode(path) else { return false }
            return open(node: node)
        }
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: inputDirectory)) ?? []
        deniedNodes = 0
        for n in nodes.filter({ $0.hasPrefix("event") }).sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) {
            if open(node: inputDirectory + "/" + n) { return true }
        }
        if deniedNodes > 0 {
            log.warning("input: \(deniedNodes) of \(inputDirectory)/event* could not be opened (permission denied) while looking for the \(options.label) \(describe); run as root or in the \"input\" group")
        }
        return false
    }

    /// Opens `node` if it is the knob: the right name (when matching by name) and the axis.
    private func open(node: String) -> Bool {
        let fd = Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if options.device == nil, e == EACCES {
                deniedNodes += 1          // searching by name: one summary line, not one per node
            } else {
                let hint = e == EACCES ? " (run as root or in the \"input\" group)" : ""
                log.warning("input: cannot open \(options.label) \(node): \(SystemCallError.message(for: e))\(hint)")
            }
            return false
        }
        var dev: OpaquePointer?
        guard libevdev_new_from_fd(fd, &dev) == 0, let dev else {
            Glibc.close(fd)
            return false
        }
        let name = String(cString: libevdev_get_name(dev))
        if let wanted = options.name, options.device == nil, name != wanted {
            libevdev_free(dev); Glibc.close(fd)
            return false
        }
        let (type, code) = decoder.axisTypeAndCode
        guard libevdev_has_event_code(dev, UInt32(type), UInt32(code)) != 0 else {
            log.error("input: \(options.label) \(node) (\(name)) has no \(options.axis.rawValue) axis; set \(options.table) axis to one it has")
            libevdev_free(dev); Glibc.close(fd)
            return false
        }
        _ = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        if libevdev_grab(dev, LIBEVDEV_GRAB) != 0 {
            log.warning("input: cannot grab \(node) (\(name)); another program reads it too")
        }
        var range: ClosedRange<Int32> = 0...0
        var value: Int32?
        if options.axis == .absX {
            let lo = libevdev_get_abs_minimum(dev, UInt32(code)), hi = libevdev_get_abs_maximum(dev, UInt32(code))
            range = min(lo, hi)...max(lo, hi)
            value = libevdev_get_event_value(dev, UInt32(type), UInt32(code))
        }
        decoder.reopened(absRange: range, absValue: value)
        device = dev; deviceFD = fd; deviceNode = node
        descriptorGeneration += 1
        var button = "no button"
        if let key = options.selectKeyCode {
            button = libevdev_has_event_code(dev, UInt32(EV_KEY), UInt32(key)) != 0
                ? "button \(KeyCodeNames.name(of: key))" : "no \(KeyCodeNames.name(of: key)) button"
        }
        log.info("input: \(options.label) opened: \(name) (\(node); \(options.axis.rawValue), \(button))")
        return true
    }

    /// Closes the open knob; returns the release of a held button.
    private func closeDevice(reason: String?) -> [TimedInputEvent] {
        guard let dev = device else { return [] }
        _ = libevdev_grab(dev, LIBEVDEV_UNGRAB)
        libevdev_free(dev)
        Glibc.close(deviceFD)
        descriptorGeneration += 1
        if let reason { log.info("input: \(options.label) \(deviceNode ?? "") \(reason)") }
        device = nil; deviceFD = -1; deviceNode = nil
        let now = monotonicNow()
        return decoder.reset().map { TimedInputEvent(time: now, event: $0) }
    }

    // MARK: - Reading

    private func readDevice() -> [TimedInputEvent] {
        guard let dev = device else { return [] }
        var out: [TimedInputEvent] = []
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(dev, flags, &ev)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                let time = ev.seconds
                out += decoder.feed(type: ev.type, code: ev.code, value: ev.value)
                    .map { TimedInputEvent(time: time, event: $0) }
            } else if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // The kernel dropped events: take libevdev's resync (state as it is now).
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    log.warning("input: \(options.label) events dropped (SYN_DROPPED); resyncing")
                    decoder.dropPending()
                }
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                let time = monotonicNow()
                out += decoder.feed(type: ev.type, code: ev.code, value: ev.value)
                    .map { TimedInputEvent(time: time, event: $0) }
            } else if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    let time = monotonicNow()
                    out += decoder.feed(type: RotaryDecoder.evSyn, code: RotaryDecoder.synReport, value: 0)
                        .map { TimedInputEvent(time: time, event: $0) }
                    continue
                }
                break
            } else {
                // -ENODEV: unplugged. Anything else: the device is unusable; wait for it again.
                out += closeDevice(reason: rc == -ENODEV ? "removed" : "failed (\(SystemCallError.message(for: -rc)))")
                break
            }
        }
        return out
    }
}
