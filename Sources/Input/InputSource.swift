import CarouselCore
import LinuxSystem

/// Anything people can touch or turn, normalized into `InputEvent`s in screen pixels.
/// Sources expose file descriptors for the main loop's epoll and are read when those are ready.
public protocol InputSource: AnyObject {
    /// File descriptors to wait on for input (level-triggered, `EPOLLIN`). The device sources
    /// of this module keep this list constant for their whole life, hotplug included.
    var pollDescriptors: [Int32] { get }
    /// Reads what is pending on the ready descriptor `fd` and returns the events, oldest first.
    func read(fd: Int32) -> [InputEvent]
    /// Like `read(fd:)`, with each event's time in seconds of the monotonic clock
    /// (`CLOCK_MONOTONIC`, the kernel's timestamp of the event where the device gives one).
    func readTimed(fd: Int32) -> [TimedInputEvent]
    /// Stops reading (a foreground program owns the devices) until `resume()`.
    func suspend()
    /// Starts reading again after `suspend()`.
    func resume()
    /// The screen the carousel is laid out in changed size (display hotplug, a new mode); the
    /// size is the rotated one, as `DisplayBackend.size` reports it.
    func screenChanged(width: Int, height: Int)
    /// Closes every device.
    func close()
}

extension InputSource {
    /// For sources without positions: nothing to do.
    public func screenChanged(width: Int, height: Int) {}

    /// For sources without their own timestamps: stamped with the monotonic clock now.
    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        let now = monotonicNow()
        return read(fd: fd).map { TimedInputEvent(time: now, event: $0) }
    }
}
