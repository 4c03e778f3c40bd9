import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The calling thread as the kernel sees it: its scheduling priority (nice value), which Linux
/// keeps per thread (setpriority(2), NOTES), so that a background thread can yield to the thread
/// that draws frames and reads input without the process changing its own; and its name.
public enum CurrentThread {
    /// How many nice levels background work runs below the thread that started it: 10, as
    /// Android's `THREAD_PRIORITY_BACKGROUND` below its default. Under CFS a thread 10 levels
    /// lower gets about a tenth of the other's share of a CPU they both want, and all of an idle one.
    public static let backgroundPriority: Int32 = 10

    /// Makes the calling thread `steps` nice levels less important than it is (never more: a
    /// thread may lower its priority without privileges, and raising it needs CAP_SYS_NICE).
    /// Throws the `errno` of `getpriority`/`setpriority`; lowering by 0 or less does nothing.
    public static func lowerPriority(by steps: Int32) throws {
        guard steps > 0 else { return }
        let now = try priority()
        guard setpriority(which, id_t(kiosk_gettid()), min(19, now + steps)) == 0 else {
            throw SystemCallError(call: "setpriority")
        }
    }

    /// Names the calling thread for the kernel (`/proc/PID/task/TID/comm`, `top -H`, `perf`,
    /// gdb): Foundation's `Thread.name` is not passed on to it. At most 15 bytes are kept.
    public static func setName(_ name: String) {
        _ = kiosk_set_thread_name(name)
    }

    /// The calling thread's nice value (-20…19). Throws the `errno` of `getpriority`.
    public static func priority() throws -> Int32 {
        errno = 0
        let value = getpriority(which, id_t(kiosk_gettid()))
        if value == -1 && errno != 0 { throw SystemCallError(call: "getpriority") }
        return value
    }

    /// `PRIO_PROCESS` with a thread id: the one thread (setpriority(2), NOTES).
    private static let which = __priority_which_t(PRIO_PROCESS.rawValue)
}
