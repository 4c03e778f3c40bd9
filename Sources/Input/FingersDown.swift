import CarouselCore

/// The touch slots with a finger down in a stream of events: `record` ends its script with a
/// `touch_cancel` for each, so a recording stopped mid-touch is a script `simulate` accepts
/// (every `touch_down` followed by one `touch_up` or `touch_cancel`, docs/input-script.md).
public struct FingersDown {
    /// The slots down now, in the order their fingers came down.
    public private(set) var slots: [Int] = []

    public init() {}

    /// Follows one event.
    public mutating func note(_ event: InputEvent) {
        switch event {
        case .touchDown(let slot, _, _): if !slots.contains(slot) { slots.append(slot) }
        case .touchUp(let slot), .touchCancel(let slot): slots.removeAll { $0 == slot }
        default: break
        }
    }

    /// A `touch_cancel` at `time` for each finger still down.
    public func cancellations(at time: Double) -> [TimedInputEvent] {
        slots.map { TimedInputEvent(time: time, event: .touchCancel(slot: $0)) }
    }
}
