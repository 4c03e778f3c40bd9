import CarouselCore
import LinuxSystem

/// Anything people can touch or turn, normalized into `InputEvent`s in screen pixels.
/// Sources expose file descriptors for the main loop's epoll and are read when those are ready.
public protocol InputSource: AnyObject {
    /// File descriptors to wait on for input (level-triggered, `EPOLLIN`), watched directly in
    /// the loop's reactor. They may change when a device comes or goes: the loop looks again
    /// after every read and `resume()`, and watches them all anew when `descriptorGeneration`
    /// changed (a device closed and another opened can get the same number).
    var pollDescriptors: [Int32] { get }
    /// Changes whenever a descriptor of `pollDescriptors` was closed or opened (0 for sources
    /// whose descriptors never change).
    var descriptorGeneration: Int { get }
    /// Reads what is pending on the ready descriptor `fd` and returns the events, oldest first,
    /// each with its time in seconds of the monotonic clock (`CLOCK_MONOTONIC`): the kernel's
    /// timestamp of the event (libinput's `time_usec`, evdev's `input_event` time), or the time
    /// of reading for the few events no device stamped (releases synthesized on unplug).
    ///
    /// This is the only read: the loop maps these times into its own clock, so that a burst
    /// of motions read at once after a slow frame keeps the spacing the finger gave them.
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
    /// Devices open now (for the metrics).
    var deviceCount: Int { get }
}

extension InputSource {
    /// For sources without positions: nothing to do.
    public func screenChanged(width: Int, height: Int) {}
    /// Sources that do not count their devices: 0.
    public var deviceCount: Int { 0 }
    /// Sources whose descriptors never change: 0.
    public var descriptorGeneration: Int { 0 }
}
