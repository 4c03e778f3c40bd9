import CEvdev
import CLinux
import CarouselCore
import Foundation
import Glibc
import LinuxSystem
import Logging

private let log = Logger(label: "kiosk.input")

/// The headphone jack's switch (`EV_SW` / `SW_HEADPHONE_INSERT`), read with libevdev: the sound
/// card's driver makes an input device for its jacks ("HDA Intel PCH Headphone", …), which
/// libinput does not report. Every `/dev/input/event*` that has the switch is opened (not
/// grabbed: a sound server may read it too), at start and when udev reports one added; the
/// switch's state at opening is reported as the first event, so a kiosk started with headphones
/// in speaks. Speech turns on and off with it (`[accessibility] speech = "headphones"`).
public final class HeadphoneJackSource: InputSource {
    private struct Jack {
        var device: OpaquePointer
        var fd: Int32
        var node: String
    }
    private var jacks: [Jack] = []
    private let queued: QueuedInput
    private let monitor: UdevMonitor
    private let inputDirectory: String
    private var suspended = false
    private var closed = false

    /// - Parameter inputDirectory: where the event nodes are looked for.
    public init(inputDirectory: String = "/dev/input") throws {
        self.inputDirectory = inputDirectory
        queued = try QueuedInput()
        monitor = try UdevMonitor()
        openAll()
        if jacks.isEmpty { log.info("input: no headphone jack switch (SW_HEADPHONE_INSERT) yet; waiting for one (udev events from \(monitor.source))") }
    }

    deinit { close() }

    public var deviceCount: Int { jacks.count }
    public var pollDescriptors: [Int32] { closed ? [] : [monitor.fd, queued.fd] + jacks.map(\.fd) }
    public private(set) var descriptorGeneration = 0

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        guard !closed else { return [] }
        var out = queued.take()
        if fd == monitor.fd {
            for change in monitor.receive() { handle(change) }
            out += queued.take()
        } else if let i = jacks.firstIndex(where: { $0.fd == fd }) {
            out += read(i)
        }
        return out
    }

    public func suspend() {
        guard !suspended, !closed else { return }
        suspended = true
        closeAll()
    }

    public func resume() {
        guard suspended, !closed else { return }
        suspended = false
        openAll()
    }

    public func close() {
        guard !closed else { return }
        closeAll()
        closed = true
    }

    // MARK: - Opening

    private func openAll() {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: inputDirectory)) ?? []
        for n in nodes.filter({ $0.hasPrefix("event") }).sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) {
            open(node: inputDirectory + "/" + n)
        }
    }

    private func handle(_ change: DeviceChange) {
        guard let node = change.devnode, (node as NSString).lastPathComponent.hasPrefix("event") else { return }
        switch change.action {
        case .add:
            if !suspended && !jacks.contains(where: { $0.node == node }) { open(node: node) }
        case .remove:
            if let i = jacks.firstIndex(where: { $0.node == node }) { closeJack(at: i, reason: "removed") }
        default:
            break
        }
    }

    /// Opens `node` if it has the headphone switch; its state now is queued as an event.
    private func open(node: String) {
        let fd = Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }   // not ours to read (permissions are the other sources' to report)
        var dev: OpaquePointer?
        guard libevdev_new_from_fd(fd, &dev) == 0, let dev else {
            Glibc.close(fd)
            return
        }
        guard libevdev_has_event_code(dev, UInt32(EV_SW), UInt32(SW_HEADPHONE_INSERT)) != 0 else {
            libevdev_free(dev); Glibc.close(fd)
            return
        }
        _ = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        jacks.append(Jack(device: dev, fd: fd, node: node))
        descriptorGeneration += 1
        let plugged = libevdev_get_event_value(dev, UInt32(EV_SW), UInt32(SW_HEADPHONE_INSERT)) != 0
        log.info("input: headphone jack opened: \(String(cString: libevdev_get_name(dev))) (\(node); \(plugged ? "plugged in" : "empty"))")
        queued.enqueue([TimedInputEvent(time: monotonicNow(), event: .headphones(plugged: plugged))])
    }

    private func closeJack(at i: Int, reason: String?) {
        let j = jacks.remove(at: i)
        libevdev_free(j.device)
        Glibc.close(j.fd)
        descriptorGeneration += 1
        if let reason { log.info("input: headphone jack \(j.node) \(reason)") }
    }

    private func closeAll() {
        while !jacks.isEmpty { closeJack(at: jacks.count - 1, reason: nil) }
    }

    // MARK: - Reading

    private func read(_ i: Int) -> [TimedInputEvent] {
        let dev = jacks[i].device
        var out: [TimedInputEvent] = []
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(dev, flags, &ev)
            if rc == LIBEVDEV_READ_STATUS_SUCCESS.rawValue || rc == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // After SYN_DROPPED, libevdev's resync gives the switch's state as it is now.
                if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue { flags = LIBEVDEV_READ_FLAG_SYNC.rawValue }
                if ev.type == UInt16(EV_SW) && ev.code == UInt16(SW_HEADPHONE_INSERT) {
                    let time = Double(ev.time.tv_sec) + Double(ev.time.tv_usec) / 1e6
                    out.append(TimedInputEvent(time: time, event: .headphones(plugged: ev.value != 0)))
                }
            } else if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue; continue }
                break
            } else {
                closeJack(at: i, reason: rc == -ENODEV ? "removed" : "failed (\(SystemCallError.message(for: -rc)))")
                break
            }
        }
        return out
    }
}
