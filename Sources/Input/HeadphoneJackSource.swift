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
    private let nodes: EvdevNodeWatch
    private let queued: QueuedInput
    private var suspended = false
    private var closed = false

    /// - Parameter inputDirectory: where the event nodes are looked for.
    public init(inputDirectory: String = "/dev/input") throws {
        queued = try QueuedInput()
        nodes = try EvdevNodeWatch(inputDirectory: inputDirectory, what: "headphone jack") {
            libevdev_has_event_code($0, UInt32(EV_SW), UInt32(SW_HEADPHONE_INSERT)) != 0
        }
        nodes.opened = { [queued] node in
            let plugged = libevdev_get_event_value(node.device, UInt32(EV_SW), UInt32(SW_HEADPHONE_INSERT)) != 0
            log.info("input: headphone jack opened: \(String(cString: libevdev_get_name(node.device))) (\(node.path); \(plugged ? "plugged in" : "empty"))")
            queued.enqueue([TimedInputEvent(time: monotonicNow(), event: .headphones(plugged: plugged))])
        }
        nodes.openAll()
        if nodes.nodes.isEmpty { log.info("input: no headphone jack switch (SW_HEADPHONE_INSERT) yet; waiting for one (udev events from \(nodes.eventSource))") }
    }

    deinit { close() }

    public var deviceCount: Int { nodes.nodes.count }
    public var pollDescriptors: [Int32] { closed ? [] : [queued.fd] + nodes.descriptors }
    public var descriptorGeneration: Int { nodes.generation }

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        guard !closed else { return [] }
        var out = queued.take()
        nodes.read(fd: fd) { ev in
            if ev.type == UInt16(EV_SW) && ev.code == UInt16(SW_HEADPHONE_INSERT) {
                out.append(TimedInputEvent(time: ev.seconds, event: .headphones(plugged: ev.value != 0)))
            }
        }
        return out + queued.take()
    }

    public func suspend() {
        guard !suspended, !closed else { return }
        suspended = true
        nodes.closeAll()
    }

    public func resume() {
        guard suspended, !closed else { return }
        suspended = false
        nodes.openAll()
    }

    public func close() {
        guard !closed else { return }
        nodes.closeAll()
        closed = true
    }
}
