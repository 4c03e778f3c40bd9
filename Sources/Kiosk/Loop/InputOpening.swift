import Foundation
import Input
import LinuxSystem

/// Input devices being opened on a thread of their own, handed to the loop through an eventfd
/// (`fd`, as `ConfigReloader` does): libinput's start reads its quirks files and udev's device
/// list, which on a cold Raspberry Pi held the loop for seconds — long enough, after the first
/// frame's `READY=1`, for systemd's watchdog to kill the kiosk (docs/start-up.md, stop 61).
///
/// The loop `take`s the sources once `fd` is readable. `abandon` (the kiosk stops, or opens the
/// devices again for another configuration) closes them instead, now or when they arrive.
final class InputOpening: @unchecked Sendable {
    /// Readable once the devices are open.
    var fd: Int32 { wake.fd }
    private let wake: EventFD
    private let lock = NSLock()
    private var opened: [InputSource]?
    private var abandoned = false

    /// Starts `open` on a new thread. Call it from the loop's thread: the new thread inherits its
    /// blocked signals (they are read through a signalfd, never delivered to a thread).
    init(open: @escaping () -> [InputSource]) throws {
        wake = try EventFD()
        Thread { [self] in self.arrive(open()) }.start()
    }

    private func arrive(_ sources: [InputSource]) {
        lock.lock()
        if abandoned {
            lock.unlock()
            sources.forEach { $0.close() }
            return
        }
        opened = sources
        lock.unlock()
        wake.signal()
    }

    /// The devices, once (nil before they are open, and after they were taken or abandoned).
    func take() -> [InputSource]? {
        lock.lock(); defer { lock.unlock() }
        _ = wake.reset()
        let sources = opened
        opened = nil
        return sources
    }

    /// Waits up to `timeout` seconds for the devices (for a stop that comes while they open).
    @discardableResult
    func wait(timeout: Double) -> Bool { wake.wait(timeout: timeout) }

    /// The devices are not wanted: closed now if they are open, else by the thread once they are.
    func abandon() {
        lock.lock()
        abandoned = true
        let sources = opened
        opened = nil
        lock.unlock()
        sources?.forEach { $0.close() }
    }
}
