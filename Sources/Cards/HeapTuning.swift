import CCardLibs
#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for a process that keeps allocating and freeing card-sized buffers
/// (1–3 MB each) on several threads. By default glibc raises its mmap threshold after the first
/// such buffer is freed, so later ones come from the heap arenas and freed memory is rarely
/// given back: RSS then grows well past the card cache's bound. A fixed threshold keeps every
/// texture and decode buffer in its own mapping, returned to the system when freed.
public enum HeapTuning {
    /// Call once at start-up, before the card workers start (process-wide).
    public static func returnLargeBuffersToSystem() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }

    /// What malloc holds, from one `mallinfo2` (which walks every arena's free lists).
    public struct Usage: Equatable, Sendable {
        /// Bytes handed out and not had back (the arenas' plus the mmapped blocks).
        public var inUse: Int
        /// Bytes free in the arenas (freed, not given back to the system): what sets resident
        /// memory above `inUse` besides stacks and the program's own mappings.
        public var heldFree: Int

        public init(inUse: Int, heldFree: Int) {
            self.inUse = inUse
            self.heldFree = heldFree
        }
    }

    /// Reads `Usage` (call it when writing a report, not every frame).
    public static var usage: Usage {
        let m = mallinfo2()
        return Usage(inUse: Int(m.uordblks) + Int(m.hblkhd), heldFree: Int(m.fordblks))
    }

    /// Bytes malloc has handed out and not had back (heap plus mmapped blocks).
    public static var bytesInUse: Int { usage.inUse }
}
