/// What the engine reports, in the order it happened. Each fires exactly once per occurrence.
public enum CarouselEvent: Equatable, Sendable {
    case currentIndexChanged(index: Int)
    case selected(index: Int)
    case dragBegan
    case dragEnded
    case decelerationBegan
    case decelerationEnded
    case scrollAnimationBegan
    case scrollAnimationEnded

    /// The event's name in the JSON-lines event stream.
    public var name: String {
        switch self {
        case .currentIndexChanged: return "current_index_changed"
        case .selected: return "selected"
        case .dragBegan: return "drag_began"
        case .dragEnded: return "drag_ended"
        case .decelerationBegan: return "deceleration_began"
        case .decelerationEnded: return "deceleration_ended"
        case .scrollAnimationBegan: return "scroll_animation_began"
        case .scrollAnimationEnded: return "scroll_animation_ended"
        }
    }
}

/// An engine event stamped with the tick time at which it happened.
public struct TimedCarouselEvent: Equatable, Sendable {
    public var time: Double
    public var event: CarouselEvent
    public init(time: Double, event: CarouselEvent) { self.time = time; self.event = event }
}
