/// What the idle controller asks the loop to do.
public enum IdleAction: Equatable, Sendable {
    /// Attract mode begins. With `autoscroll` (items per second) set the carousel scrolls
    /// continuously until `attractEnded`; with nil, `advance` actions follow.
    case attractBegan(autoscroll: Double?)
    /// Attract mode: go to the next item (to the first after the last when the carousel does not
    /// wrap), with the usual scroll animation.
    case advance
    /// Attract mode is over: stop any autoscroll and let the carousel settle.
    case attractEnded
    /// Scroll back to item `index`.
    case goHome(index: Int)
    /// Turn the screen off (DPMS off, or a black frame), stop drawing.
    case blank
    /// Turn the screen back on and redraw.
    case wake
    /// `[idle] warn_before` seconds before going home or blanking: ask "Do you need more
    /// time?" until `until` (when that happens); any input restarts the timers.
    case warn(until: Double)
    /// The person paused attract mode and the carousel's own autoscroll (`pause` key).
    case attractPaused
    /// They pressed `pause` again, or the kiosk went home: moving by itself may start again.
    case attractResumed

    /// The event's name in the JSON-lines stream.
    public var eventName: String {
        switch self {
        case .attractBegan: return "attract_began"
        case .advance: return "attract_advanced"
        case .attractEnded: return "attract_ended"
        case .goHome: return "went_home"
        case .blank: return "screen_blanked"
        case .wake: return "screen_woke"
        case .warn: return "idle_warning"
        case .attractPaused: return "attract_paused"
        case .attractResumed: return "attract_resumed"
        }
    }

    /// The event's fields, JSON-encoded (for `EventLog.write(time:name:fields:)`).
    public var eventFields: [(String, String)] {
        switch self {
        case .attractBegan(let speed?): return [("autoscroll", String(format: "%.4f", speed))]
        case .goHome(let index): return [("index", String(index))]
        case .warn(let until): return [("until", String(format: "%.3f", until))]
        default: return []
        }
    }
}

/// What to do with one input event, and what the idle controller wants done because of it.
public struct IdleInputVerdict: Equatable, Sendable {
    /// False: the event woke the screen (or belongs to the gesture that did) and must not reach
    /// the gestures, so the first touch after blanking never selects.
    public var deliver: Bool
    public var actions: [IdleAction]
}
