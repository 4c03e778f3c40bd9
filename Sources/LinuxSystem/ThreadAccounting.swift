import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel has counted for the calling thread since it was created: its time on a CPU,
/// its time ready to run but waiting for one, and its page faults: those it waited on the disk
/// for, and the others (a page of a file already in memory mapped, a zeroed page given), each
/// of which costs a trip through the kernel — dear under emulation.
/// Two readings say where the wall time between them went: on a CPU, waiting for a CPU (other
/// work had it), or blocked (a disk read, a sleep, a lock) — the rest. For the main thread the
/// counts begin at the process's fork and go on across `execve`, so the first reading in `main`
/// also covers the unit's sandbox set up between the two.
public struct ThreadAccounting: Sendable, Equatable {
    /// Seconds on a CPU (`CLOCK_THREAD_CPUTIME_ID`).
    public var cpu: Double
    /// Seconds runnable but waiting for a CPU (`/proc/thread-self/schedstat`, second field); nil
    /// where the kernel does not count it (no `CONFIG_SCHED_INFO`, or the file cannot be read).
    public var runQueueWait: Double?
    /// Page faults that read from the disk (`getrusage(RUSAGE_THREAD)`'s `ru_majflt`).
    public var majorFaults: Int
    /// Page faults served without the disk (`ru_minflt`).
    public var minorFaults: Int

    public init(cpu: Double, runQueueWait: Double?, majorFaults: Int, minorFaults: Int = 0) {
        self.cpu = cpu
        self.runQueueWait = runQueueWait
        self.majorFaults = majorFaults
        self.minorFaults = minorFaults
    }

    /// The calling thread's counts now.
    public static func current() -> ThreadAccounting {
        var ts = timespec()
        let cpu = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 ? MonotonicClock.seconds(ts) : 0
        var major = 0, minor = 0
        if kiosk_thread_page_faults(&major, &minor) != 0 { (major, minor) = (0, 0) }
        return ThreadAccounting(cpu: cpu, runQueueWait: readRunQueueWait(), majorFaults: major, minorFaults: minor)
    }

    /// The counts between `earlier` and this reading (a wait known only if known in both).
    public func since(_ earlier: ThreadAccounting) -> ThreadAccounting {
        ThreadAccounting(cpu: cpu - earlier.cpu,
                         runQueueWait: runQueueWait.flatMap { now in earlier.runQueueWait.map { now - $0 } },
                         majorFaults: majorFaults - earlier.majorFaults, minorFaults: minorFaults - earlier.minorFaults)
    }

    /// How `wall` seconds of the thread's life went, given the counts over them:
    /// `0.41 s on a CPU, 0.30 s waiting for one, 0.34 s blocked (212 page reads, 5310 other
    /// faults)`; without a run-queue count, `0.41 s on a CPU, 0.64 s off it (…)`.
    public func describe(over wall: Double) -> String {
        func s(_ v: Double) -> String {
            let hundredths = Int((max(0, v) * 100).rounded())
            return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100) s"
        }
        let reads = "(\(majorFaults) page read\(majorFaults == 1 ? "" : "s"), \(minorFaults) other fault\(minorFaults == 1 ? "" : "s"))"
        guard let wait = runQueueWait else { return "\(s(cpu)) on a CPU, \(s(wall - cpu)) off it \(reads)" }
        return "\(s(cpu)) on a CPU, \(s(wait)) waiting for one, \(s(wall - cpu - wait)) blocked \(reads)"
    }

    /// The second field of `/proc/thread-self/schedstat` in seconds (the file: time on a CPU,
    /// time waiting on a run queue, both in nanoseconds, and the number of time slices).
    static func readRunQueueWait() -> Double? {
        ProcNumbers.read("/proc/thread-self/schedstat", capacity: 96).flatMap { runQueueWait(schedstat: $0[...]) }
    }

    /// The run-queue wait in seconds from the text of a `schedstat` file; nil if it is not three
    /// numbers, or all zero (what a kernel that does not count writes).
    static func runQueueWait(schedstat text: String) -> Double? {
        runQueueWait(schedstat: Array(text.utf8)[...])
    }

    /// `runQueueWait(schedstat:)` on the file's bytes.
    static func runQueueWait(schedstat bytes: ArraySlice<UInt8>) -> Double? {
        let fields = ProcNumbers.fields(bytes).compactMap(ProcNumbers.unsigned)
        guard fields.count == 3, fields[0] != 0 || fields[1] != 0 else { return nil }
        return Double(fields[1]) / 1e9
    }
}
