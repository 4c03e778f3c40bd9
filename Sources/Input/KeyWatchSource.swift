import CEvdev
import CarouselCore
import Glibc

/// Some keys read beside whoever owns the input devices: every `/dev/input/event*` that has one
/// of `keys`' codes is opened read-only and not grabbed (`EvdevNodeWatch`), so a foreground
/// program keeps getting every event while the kiosk hears its own keys (holding Home ends the
/// program: `ForegroundLeaveKey`). Presses and releases only: the kernel's autorepeat is not a
/// press. A program that grabs a device (`EVIOCGRAB`) takes its events from everyone, this too.
public final class KeyWatchSource: InputSource {
    private let nodes: EvdevNodeWatch
    private let keys: [UInt16: KeyName]
    private var closed = false

    /// Opens the devices now (and each one udev adds until `close()`).
    /// - Parameters:
    ///   - keys: the key codes heard, and the kiosk key each one is.
    ///   - inputDirectory: where the event nodes are looked for.
    public init(keys: [UInt16: KeyName], inputDirectory: String = "/dev/input") throws {
        self.keys = keys
        nodes = try EvdevNodeWatch(inputDirectory: inputDirectory, what: "key watch") { dev in
            keys.keys.contains { libevdev_has_event_code(dev, UInt32(EV_KEY), UInt32($0)) != 0 }
        }
        nodes.openAll()
    }

    deinit { close() }

    public var deviceCount: Int { nodes.nodes.count }
    public var pollDescriptors: [Int32] { closed ? [] : nodes.descriptors }
    public var descriptorGeneration: Int { nodes.generation }

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        guard !closed else { return [] }
        var out: [TimedInputEvent] = []
        nodes.read(fd: fd) { ev in
            guard ev.type == UInt16(EV_KEY), let key = keys[ev.code], ev.value == 0 || ev.value == 1 else { return }
            out.append(TimedInputEvent(time: ev.seconds, event: ev.value == 1 ? .keyDown(key) : .keyUp(key)))
        }
        return out
    }

    /// Only read while it exists: nothing to hand over.
    public func suspend() {}
    public func resume() {}

    public func close() {
        guard !closed else { return }
        nodes.closeAll()
        closed = true
    }
}
