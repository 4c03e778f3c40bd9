/// Maps the kernel's input timestamps into the loop's clock.
///
/// Devices stamp every event with `CLOCK_MONOTONIC` (libinput's `time_usec`, evdev's
/// `input_event` time); the loop's clock is seconds since it started on the same clock. An
/// event keeps the time the finger moved, not the time the loop got round to reading it: when
/// a slow frame makes several motions arrive in one read, the gesture recognizer's velocity fit
/// still sees their real spacing, and a `record`ed script (which keeps the same kernel times)
/// replays as it was seen live.
///
/// Two clamps keep the engine's time sane: an event is never later than the loop's `now` (a
/// device clock running ahead would move the physics into the future), and never earlier than
/// the event delivered before it (the touchscreen and the knob are read separately, and a
/// gesture must not see time run backwards). Events queued before the loop started count from
/// its start.
struct InputClock {
    /// The monotonic time (seconds) the loop's clock counts from.
    let start: Double
    /// The loop time of the last event delivered.
    private(set) var last = 0.0

    init(start: Double) { self.start = start }

    /// The loop time for an event the kernel stamped `kernelTime` (monotonic seconds), read at
    /// loop time `now`.
    mutating func loopTime(ofKernelTime kernelTime: Double, now: Double) -> Double {
        var t = kernelTime.isFinite ? kernelTime - start : now
        t = min(now, max(last, t))
        last = t
        return t
    }
}
