import Foundation
import Glibc
import LinuxSystem

/// The kiosk's start, step by step, on the monotonic clock: when the process began, when `run`
/// began, and when each step of the start ended (`mark`). `StartupReportComponent` logs it with
/// the first frame on screen, so a journal says where the start went on the machine it ran on
/// (docs/start-up.md: under systemd, "process began → first frame" is the image's *exec → first
/// frame*).
public struct StartupTimeline: Sendable {
    /// One step of the start: its name and the monotonic time it ended.
    public struct Step: Sendable, Equatable {
        public var name: String
        public var end: Double
    }

    /// When the process began (monotonic seconds), as the kernel counts it: its fork, which
    /// under systemd is the moment of the unit's `ExecMainStartTimestampMonotonic`, before the
    /// unit's sandbox is set up and the binary and its libraries are loaded. Nil where
    /// `/proc/self/stat` cannot be read.
    public let processStart: Double?
    /// When the program's `main` began (after the sandbox, the loader and the runtime's start),
    /// nil when not known: the time before it and the arguments' parsing are then one step.
    public let mainStart: Double?
    /// When `run` began (the program's own code, after the arguments were parsed).
    public let runStart: Double
    /// The main thread's counts when `main` began (`ThreadAccounting`: since the fork, so they
    /// cover the sandbox, the loader and the runtime), nil when not taken.
    public let mainAccounting: ThreadAccounting?
    /// The steps since `runStart`, in order.
    public private(set) var steps: [Step] = []
    /// The start's helper threads (`run`'s fonts' thread), each said after the main thread's
    /// counts (`threadsSummary`).
    public var threads: [StartupThreadRecord] = []

    public init(processStart: Double? = StartupTimeline.processStartTime(), mainStart: Double? = nil,
                mainAccounting: ThreadAccounting? = nil, runStart: Double = MonotonicClock.now()) {
        self.processStart = processStart
        self.mainStart = mainStart
        self.mainAccounting = mainAccounting
        self.runStart = runStart
    }

    /// Ends the step `name` at `time` (the next step begins there).
    public mutating func mark(_ name: String, at time: Double = MonotonicClock.now()) {
        steps.append(Step(name: name, end: time))
    }

    /// The log line of the first frame on screen at `shownAt`, drawn in `drawing` seconds:
    /// `first frame on screen 2.31 s after the process began: 0.70 s before main (sandbox,
    /// libraries, runtime), arguments 0.15 s, config 0.31 s, … , first frame 0.52 s (drawn and
    /// handed over in 0.40 s)`: each step from the end of the one before. Without `mainStart`
    /// the first two are one, `0.85 s before run (sandbox, libraries, runtime, arguments)`.
    public func summary(shownAt: Double, drawing: Double) -> String {
        var parts: [String] = []
        var head = "first frame on screen"
        if let processStart {
            head += " " + Self.seconds(shownAt - processStart) + " after the process began"
            if let mainStart {
                parts.append(Self.seconds(mainStart - processStart) + " before main (sandbox, libraries, runtime)")
                parts.append("arguments " + Self.seconds(runStart - mainStart))
            } else {
                parts.append(Self.seconds(runStart - processStart) + " before run (sandbox, libraries, runtime, arguments)")
            }
        } else {
            head += " " + Self.seconds(shownAt - runStart) + " after run began"
        }
        parts += Self.durations(of: steps, from: runStart)
        parts.append("first frame " + Self.seconds(shownAt - (steps.last?.end ?? runStart)) + " (drawn and handed over in " + Self.seconds(drawing) + ")")
        return head + ": " + parts.joined(separator: ", ")
    }

    /// Where the main thread's time went, given its counts once the first frame is on screen
    /// (`shown`, read on that thread at `time`, monotonic) and all threads' CPU time by then
    /// (`processCPU`): `main thread before main: 0.41 s on a CPU, 0.30 s waiting for one, 0.34 s
    /// blocked (212 page reads, 850 other faults); from main to the first frame: …; all threads
    /// 3.10 s on a CPU`. Busy, waiting or blocked
    /// call for different cuts: less work, fewer other units at boot, or fewer pages read.
    /// Nil without the process's start, `main`'s start or its counts.
    public func accountingSummary(at time: Double, shown: ThreadAccounting, processCPU: Double) -> String? {
        guard let processStart, let mainStart, let mainAccounting else { return nil }
        return "main thread before main: " + mainAccounting.describe(over: mainStart - processStart)
            + "; from main to the first frame: " + shown.since(mainAccounting).describe(over: time - mainStart)
            + "; all threads " + Self.seconds(processCPU) + " on a CPU"
    }

    /// The helper threads, each as `StartupThreadRecord.summary` says it, `; `-separated, their
    /// times from `main` (from `run` without it); nil without threads.
    public func threadsSummary() -> String? {
        guard !threads.isEmpty else { return nil }
        return threads.map { $0.summary(mainStart: mainStart ?? runStart) }.joined(separator: "; ")
    }

    /// CPU time of every thread of this process so far, the exited ones too, since its fork
    /// (`CLOCK_PROCESS_CPUTIME_ID`).
    public static func processCPUTime() -> Double {
        var ts = timespec()
        return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 ? MonotonicClock.seconds(ts) : 0
    }

    /// `config 0.31 s` for each step, from the end of the one before (the first from `start`).
    static func durations(of steps: [Step], from start: Double) -> [String] {
        var from = start
        return steps.map { step in
            defer { from = step.end }
            return "\(step.name) " + seconds(step.end - from)
        }
    }

    /// `0.31 s`: two decimals, never negative.
    static func seconds(_ s: Double) -> String { String(format: "%.2f s", max(0, s)) }

    /// When this process began, on the monotonic clock: `/proc/self/stat`'s start time (clock
    /// ticks since boot, on the boot-time clock) carried over to `CLOCK_MONOTONIC`. Nil when it
    /// cannot be read.
    public static func processStartTime() -> Double? {
        guard let stat = ProcNumbers.read("/proc/self/stat") else { return nil }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        guard ticks > 0 else { return nil }
        var boot = timespec(), mono = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        return processStartTime(stat: stat, ticksPerSecond: Double(ticks),
                                bootTimeNow: MonotonicClock.seconds(boot), monotonicNow: MonotonicClock.seconds(mono))
    }

    /// `processStartTime()` from the text of a `/proc/PID/stat` file (proc(5): the start time is
    /// field 22; the command name, field 2, is in parentheses and may hold spaces and
    /// parentheses itself, so the fields are counted after its last `)`).
    static func processStartTime(stat: String, ticksPerSecond: Double, bootTimeNow: Double, monotonicNow: Double) -> Double? {
        processStartTime(stat: Array(stat.utf8), ticksPerSecond: ticksPerSecond, bootTimeNow: bootTimeNow, monotonicNow: monotonicNow)
    }

    /// `processStartTime(stat:…)` on the file's bytes (read without Foundation: `ProcNumbers`).
    static func processStartTime(stat: [UInt8], ticksPerSecond: Double, bootTimeNow: Double, monotonicNow: Double) -> Double? {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = ProcNumbers.fields(stat[(close + 1)...])
        // Field 3 (state) is the first after the name: field 22 is the 20th.
        guard fields.count >= 20, let startTicks = ProcNumbers.unsigned(fields[19]).map({ Double($0) }) else { return nil }
        let age = bootTimeNow - startTicks / ticksPerSecond
        guard age >= 0 else { return nil }
        return monotonicNow - age
    }
}
