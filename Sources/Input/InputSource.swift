import CarouselCore

/// Anything people can touch or turn, normalized into `InputEvent`s in screen pixels.
/// Sources expose file descriptors for the main loop's epoll and are read when those are ready.
public protocol InputSource: AnyObject {
    /// File descriptors to wait on; may change after hotplug (re-read after each `read`).
    var pollDescriptors: [Int32] { get }
    /// Reads what is pending on the ready descriptor `fd` and returns the events, oldest first.
    func read(fd: Int32) -> [InputEvent]
    /// Stops reading (a foreground program owns the devices) until `resume()`.
    func suspend()
    /// Starts reading again after `suspend()`.
    func resume()
    /// Closes every device.
    func close()
}
