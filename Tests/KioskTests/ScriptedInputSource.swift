import CarouselCore
import Glibc
import Input

/// An input device for loop tests: each read returns the events the test queued, with the
/// kernel times it gave them. Its descriptor is a pipe's read end (a real fd the loop can
/// watch; nothing is ever written to it).
final class ScriptedInputSource: InputSource {
    private let pipeFDs: [Int32] = { var p: [Int32] = [-1, -1]; _ = pipe(&p); return p }()
    /// The descriptor to pass to `KioskApp.readInput`.
    var fd: Int32 { pipeFDs[0] }
    /// What the next read returns.
    var queued: [TimedInputEvent] = []
    var pollDescriptors: [Int32] { [fd] }
    func readTimed(fd: Int32) -> [TimedInputEvent] { defer { queued = [] }; return queued }
    func suspend() {}
    func resume() {}
    func close() { pipeFDs.forEach { _ = Glibc.close($0) } }
}
