/// `exitAfter`: stops the loop by itself after a number of seconds (tests, measurements).
///
/// The stop comes at the next `prepare`, after the pass in which its time came: a loop that was
/// late (a slow first frame, an emulated CPU) runs every other deadline that was due by then —
/// a `--shot` before the end is still written — whatever order the components were added in.
final class StopTimer: KioskComponent {
    private let deadline: Double
    private var reached = false
    private let stop: () -> Void

    init(after seconds: Double, stop: @escaping () -> Void) { deadline = seconds; self.stop = stop }

    /// The loop's time to stop at; nil once it came.
    var nextDeadline: Double? { reached ? nil : deadline }

    func deadlineReached(now: Double) { reached = true }

    func prepare(now: Double) { if reached { stop() } }
}
