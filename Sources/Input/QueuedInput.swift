import CarouselCore
import LinuxSystem

/// Events an input source has without any device activity — the touch cancels and key releases
/// of `suspend()`, a device removed, devices queued inside a library at start — and an eventfd
/// that makes the source readable for them: one of its `pollDescriptors`.
final class QueuedInput {
    private let wakeCounter: EventFD
    private var queued: [TimedInputEvent] = []

    init() throws {
        wakeCounter = try EventFD()
    }

    /// Readable when events are queued or a read was asked for (`wake`).
    var fd: Int32 { wakeCounter.fd }

    /// Queues events to be returned by the next read, and makes `fd` readable.
    func enqueue(_ events: [TimedInputEvent]) {
        guard !events.isEmpty else { return }
        queued += events
        wake()
    }

    /// Makes `fd` readable so the owner is read soon (work is pending inside a library).
    func wake() { wakeCounter.signal() }

    /// Takes the queued events; `fd` is not readable afterwards until the next `wake`.
    func take() -> [TimedInputEvent] {
        wakeCounter.reset()
        defer { queued.removeAll() }
        return queued
    }
}

/// Why a device source could not start.
/// A failed system call throws `SystemCallError` (LinuxSystem) instead.
public enum InputDeviceError: Error, CustomStringConvertible, Equatable {
    /// libinput or libudev refused to set up (the message says what to check).
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}
