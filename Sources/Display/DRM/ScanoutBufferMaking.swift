#if canImport(Glibc)
import Glibc
#endif

/// The scan-out buffers of the mode the backend opens with, made on a thread of their own while
/// the kiosk reads the rest of its config, makes its components and draws its first frame into
/// memory of its own; the backend takes them (`wait()`) when that frame is copied out
/// (docs/start-up.md, stop 70). Under QEMU TCG a boot's first `DRM_IOCTL_MODE_CREATE_DUMB` took
/// 0.2–0.6 s in a third of the boots, all of it on the first frame's path before; a board's
/// driver allocating contiguous memory (CMA on a Pi) is the same kind of wait.
///
/// The thread makes the buffers in turn (`make`) and does nothing else with the descriptor; the
/// backend touches neither the descriptor nor the buffers until `wait()` has returned, so no call
/// is made on the descriptor from two threads at once. A thread that cannot be started leaves
/// the work to `wait()`, on the caller's thread.
final class ScanoutBufferMaking {
    /// The mode the buffers are made for.
    let mode: DRMMode
    private let count: Int
    private let fd: Int32
    private let system: DisplaySystem
    /// Written by the thread before it ends; read after `pthread_join`, which orders the two.
    private var result: Result<[DumbBuffer], any Error>?
    private var thread: pthread_t?

    /// Starts making `count` buffers of `mode`'s size on `fd`.
    init(mode: DRMMode, count: Int, fd: Int32, system: DisplaySystem) {
        self.mode = mode
        self.count = count
        self.fd = fd
        self.system = system
        var started = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let made = pthread_create(&started, nil, { context in
            let making = Unmanaged<ScanoutBufferMaking>.fromOpaque(context!).takeRetainedValue()
            making.result = making.makeNow()
            return nil
        }, context)
        if made == 0 {
            thread = started
        } else {
            Unmanaged<ScanoutBufferMaking>.fromOpaque(context).release()
        }
    }

    /// The buffers, or the error that stopped their making (the ones made before it are freed);
    /// waits for the thread when it is still at work. Once only: the caller owns the buffers.
    func wait() -> Result<[DumbBuffer], any Error> {
        if let started = thread {
            pthread_join(started, nil)
            thread = nil
        }
        if result == nil { result = makeNow() }
        return result!
    }

    private func makeNow() -> Result<[DumbBuffer], any Error> {
        Result { try Self.make(count: count, width: mode.width, height: mode.height, fd: fd, system: system) }
    }

    /// `count` buffers of `width`×`height` on `fd`; when one cannot be made, the ones made before
    /// it are freed and its error thrown.
    static func make(count: Int, width: Int, height: Int, fd: Int32, system: DisplaySystem) throws -> [DumbBuffer] {
        var made: [DumbBuffer] = []
        do {
            for _ in 0..<count {
                made.append(try DumbBuffer.create(fd: fd, width: width, height: height, system: system))
            }
        } catch {
            made.forEach { $0.destroy(fd: fd, system: system) }
            throw error
        }
        return made
    }
}
