import CarouselCore

/// Turns a rotary encoder's raw evdev events into kiosk events: detents summed per
/// `SYN_REPORT` frame into one `rotary(delta:)` (positive clockwise, raw detents — the gesture
/// layer applies `detents_per_item` and acceleration), and the push button into
/// `keyDown(.enter)`/`keyUp(.enter)` (which selects). Pure: no device, fully testable.
public struct RotaryDecoder: Sendable {
    public let axis: RotaryOptions.Axis
    public let invert: Bool
    public let selectKeyCode: UInt16?
    /// For `ABS_X`: the wrapping range `min...max` and the last value seen.
    private var absRange: ClosedRange<Int32>
    private var lastAbs: Int32?
    private var pending = 0
    private var buttonDown = false

    // Linux input event types and codes (linux/input-event-codes.h; stable kernel ABI).
    static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evRel: UInt16 = 2, evAbs: UInt16 = 3
    static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    static let relX: UInt16 = 0, relHWheel: UInt16 = 6, relDial: UInt16 = 7, relWheel: UInt16 = 8
    static let absX: UInt16 = 0

    /// `absRange` and `absValue` are the device's `ABS_X` minimum…maximum and current value
    /// (ignored for relative axes).
    public init(axis: RotaryOptions.Axis, invert: Bool, selectKeyCode: UInt16?,
                absRange: ClosedRange<Int32> = 0...0, absValue: Int32? = nil) {
        self.axis = axis; self.invert = invert; self.selectKeyCode = selectKeyCode
        self.absRange = absRange; self.lastAbs = absValue
    }

    /// The evdev type and code carrying the axis.
    public var axisTypeAndCode: (type: UInt16, code: UInt16) {
        switch axis {
        case .relDial: return (Self.evRel, Self.relDial)
        case .relWheel: return (Self.evRel, Self.relWheel)
        case .relHWheel: return (Self.evRel, Self.relHWheel)
        case .relX: return (Self.evRel, Self.relX)
        case .absX: return (Self.evAbs, Self.absX)
        }
    }

    /// The signed change from `old` to `new` on a range of `count` positions that wraps around:
    /// the shorter way round (a turn from the last position to the first is +1, not −(count−1)).
    /// At exactly half the range the direction is ambiguous; it is taken as forward.
    public static func wrappedDelta(from old: Int32, to new: Int32, count: Int64) -> Int {
        let d = Int64(new) - Int64(old)
        guard count > 1 else { return Int(d) }
        var m = d % count
        if m > count / 2 { m -= count } else if m < -(count - 1) / 2 { m += count }
        return Int(m)
    }

    /// Feeds one evdev event; returns the kiosk events it completes.
    public mutating func feed(type: UInt16, code: UInt16, value: Int32) -> [InputEvent] {
        let (axisType, axisCode) = axisTypeAndCode
        switch type {
        case axisType where code == axisCode && axisType == Self.evRel:
            pending += Int(value)
        case axisType where code == axisCode && axisType == Self.evAbs:
            if let last = lastAbs {
                let count = Int64(absRange.upperBound) - Int64(absRange.lowerBound) + 1
                pending += Self.wrappedDelta(from: last, to: value, count: count)
            }
            lastAbs = value
        case Self.evKey where code == selectKeyCode:
            // 1 press, 0 release, 2 autorepeat (ignored: holding the knob selects once).
            if value == 1, !buttonDown { buttonDown = true; return flush() + [.keyDown(.enter)] }
            if value == 0, buttonDown { buttonDown = false; return flush() + [.keyUp(.enter)] }
        case Self.evSyn where code == Self.synReport:
            return flush()
        default:
            break
        }
        return []
    }

    /// After `SYN_DROPPED` the kernel's buffer overflowed: detents in the lost part are gone;
    /// libevdev's sync reports the current absolute value, which `feed` turns into a delta.
    public mutating func dropPending() { pending = 0 }

    /// The device went away or was released: a held button is let go.
    public mutating func reset() -> [InputEvent] {
        pending = 0
        lastAbs = nil
        if buttonDown { buttonDown = false; return [.keyUp(.enter)] }
        return []
    }

    /// Re-arms after the device is (re)opened with its current absolute value.
    public mutating func reopened(absRange: ClosedRange<Int32>, absValue: Int32?) {
        self.absRange = absRange; lastAbs = absValue; pending = 0
    }

    private mutating func flush() -> [InputEvent] {
        guard pending != 0 else { return [] }
        let d = invert ? -pending : pending
        pending = 0
        return [.rotary(delta: d)]
    }
}
