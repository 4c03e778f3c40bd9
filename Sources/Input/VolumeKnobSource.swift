import CarouselCore

/// A knob of its own for the volume (`[input.volume_knob]`, EN 301 549 5.1.3.11): the detents a
/// knob reports (`RotaryEncoderSource`'s `.rotary(delta:)`) become presses of the kiosk's
/// `volume_up` (clockwise) and `volume_down` keys, one per `detentsPerStep` detents, so the
/// volume follows the same path as the volume keys (the level spoken, back to the default at
/// idle). Detents short of a step are kept for the next turn the same way; a turn back starts
/// the count again. Every other event of the knob (a button) is dropped: the volume knob
/// selects nothing.
public final class VolumeKnobSource: InputSource {
    private let knob: InputSource
    private let detentsPerStep: Int
    /// Detents turned towards the next step (negative: down).
    private var pending = 0

    /// - Parameters:
    ///   - knob: the knob's events (a `RotaryEncoderSource`; a test gives its own).
    ///   - detentsPerStep: detents that make one step, at least 1.
    public init(knob: InputSource, detentsPerStep: Int) {
        self.knob = knob
        self.detentsPerStep = max(1, detentsPerStep)
    }

    /// Opens the knob as a `RotaryEncoderSource` with `options` (its button unused).
    public convenience init(options: RotaryOptions, detentsPerStep: Int) throws {
        var o = options
        o.selectKeyCode = nil
        try self.init(knob: RotaryEncoderSource(options: o), detentsPerStep: detentsPerStep)
    }

    public var pollDescriptors: [Int32] { knob.pollDescriptors }
    public var descriptorGeneration: Int { knob.descriptorGeneration }
    public var deviceCount: Int { knob.deviceCount }

    public func readTimed(fd: Int32) -> [TimedInputEvent] {
        var out: [TimedInputEvent] = []
        for e in knob.readTimed(fd: fd) {
            guard case .rotary(let delta) = e.event, delta != 0 else { continue }
            if (pending > 0 && delta < 0) || (pending < 0 && delta > 0) { pending = 0 }
            pending += delta
            while abs(pending) >= detentsPerStep {
                let key: KeyName = pending > 0 ? .volumeUp : .volumeDown
                pending -= pending > 0 ? detentsPerStep : -detentsPerStep
                out += [TimedInputEvent(time: e.time, event: .keyDown(key)), TimedInputEvent(time: e.time, event: .keyUp(key))]
            }
        }
        return out
    }

    public func suspend() { pending = 0; knob.suspend() }
    public func resume() { knob.resume() }
    public func close() { knob.close() }
}
