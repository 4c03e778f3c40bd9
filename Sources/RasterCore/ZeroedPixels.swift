#if canImport(Glibc)
import Glibc
#endif

/// Pixel memory that starts transparent (all zero) without being written first: `calloc`, which
/// for a buffer of a frame's or a card's size (above malloc's mmap threshold, `HeapTuning`) hands
/// out fresh pages the kernel zeroes when they are first touched, instead of a `memset` pass over
/// them. A frame-sized canvas made and then drawn or copied over (the frame composer's two, the
/// session's background: every one at the kiosk's start) is then written once, not twice:
/// measured under TCG (docs/start-up.md, stop 47), the memset pass was ~0.1 s of the start.
enum ZeroedPixels {
    /// `count` zeroed pixels; free them with `release`. Stops the program when memory is
    /// exhausted, as Swift's own allocation does.
    static func allocate(count: Int) -> UnsafeMutablePointer<UInt32> {
        guard let memory = calloc(max(1, count), MemoryLayout<UInt32>.stride) else {
            fatalError("out of memory: \(count) pixels")
        }
        return memory.bindMemory(to: UInt32.self, capacity: max(1, count))
    }

    static func release(_ pixels: UnsafeMutablePointer<UInt32>) { free(pixels) }
}
