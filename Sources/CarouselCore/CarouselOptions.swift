/// The carousel families, named as in the config (`[carousel] type = ...`).
public enum CarouselType: String, CaseIterable, Sendable {
    case linear, rotary, cylinder, wheel, coverflow, coverflow2, scaling, custom
    case invertedRotary = "inverted-rotary"
    case invertedCylinder = "inverted-cylinder"
    case invertedWheel = "inverted-wheel"
    case timeMachine = "time-machine"
    case invertedTimeMachine = "inverted-time-machine"
    case conveyorBelt = "conveyor-belt"
}

/// One keyframe of a `custom` path: the pose of an item sitting at `offset` item units from focus.
public struct PathKeyframe: Equatable, Sendable {
    public var offset: Double
    public var translate: (x: Double, y: Double, z: Double)
    /// Rotation about x, y, z in degrees.
    public var rotate: (x: Double, y: Double, z: Double)
    public var scale: Double
    public var alpha: Double
    public init(offset: Double, translate: (Double, Double, Double) = (0, 0, 0),
                rotate: (Double, Double, Double) = (0, 0, 0), scale: Double = 1, alpha: Double = 1) {
        self.offset = offset; self.translate = translate; self.rotate = rotate
        self.scale = scale; self.alpha = alpha
    }
    public static func == (a: PathKeyframe, b: PathKeyframe) -> Bool {
        a.offset == b.offset && a.translate == b.translate && a.rotate == b.rotate
            && a.scale == b.scale && a.alpha == b.alpha
    }
}

/// Every layout and physics parameter of a carousel. `nil` means "computed as iCarousel does".
/// Defaults are iCarousel's; `docs/configuration.md` lists each with its range.
public struct CarouselOptions: Equatable, Sendable {
    public var type: CarouselType = .coverflow
    public var vertical = false
    /// The card size in pixels.
    public var itemSize = Size2(400, 300)
    /// Slot spacing (iCarousel's `itemWidth`); nil: the card's width (height when vertical).
    public var itemWidth: Double?
    public var perspective = -1.0 / 500.0
    public var viewpointOffset = Point2.zero
    public var contentOffset = Point2.zero
    // iCarousel options (nil: the type's own default).
    /// Slots on a circular ring (rotary, cylinder, wheel and their inverted forms); iCarousel
    /// truncates it to a whole number. nil: `min(itemCount, min(30, max(12, ceil(extent / (spacing·item_width))·π)))`.
    public var count: Double?
    /// Radians of the ring the `count` slots spread over (2π).
    public var arc: Double?
    /// Ring radius in pixels; nil: the type's formula (see docs/layouts.md).
    public var radius: Double?
    /// Radians between neighbouring items on a circular ring; nil: `arc / count`. (iCarousel passes
    /// the whole per-item angle through its delegate; a fixed config value is the step per item.)
    public var angle: Double?
    public var tilt: Double?
    public var spacing: Double?
    public var fadeMin: Double?
    public var fadeMax: Double?
    public var fadeRange: Double?
    public var fadeMinAlpha: Double?
    public var showBackfaces: Bool?
    public var wrap: Bool?
    public var offsetMultiplier: Double?
    /// Most items drawn at once, whatever the type computes; nil: the type's own count. At most
    /// `visibleItemsLimit`.
    public var visibleItems: Int?
    /// The most `visible_items` may ask for, so that a frame's cost stays bounded (the config
    /// refuses more).
    public static let visibleItemsLimit = 1000
    /// iCarousel's placeholders: empty slots shown on each side of a non-wrapping carousel, so a
    /// row with few items does not end abruptly. They are drawn, never selected.
    public var placeholders = 0
    // Conveyor belt (ShinobiEssentials).
    public var maxItemsOnFront = 5
    public var rollerRadius = 150.0
    public var rotateFactor = 0.1
    /// Where offset 0 sits, as a fraction of the view (0.5, 0.5 is the centre).
    public var focusPoint = Point2(0.5, 0.5)
    // Scaling pager.
    public var inset = 40.0
    public var cornerRadius = 0.0
    // Custom path.
    public var keyframes: [PathKeyframe] = []
    // Physics.
    public var tickHz = 120.0
    public var scrollSpeed = 1.0
    public var scrollEnabled = true
    public var decelerationRate = 0.95
    public var bounces = true
    public var bounceDistance = 1.0
    public var stopAtItemBoundary = true
    public var scrollToItemBoundary = true
    public var paging = false
    public var scrollDuration = 0.4
    /// Items per second; 0 is off.
    public var autoscroll = 0.0
    public var centerItemWhenSelected = true
    public init() {}

    /// Whether the ring wraps when `wrap` is not set: iCarousel's default per type (the circular
    /// types wrap, the others do not).
    public var wrapsByDefault: Bool {
        switch type {
        case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel: return true
        default: return false
        }
    }

    /// Whether the ring wraps (`wrap`, else the type's default).
    public var wraps: Bool { wrap ?? wrapsByDefault }

    /// `offset_multiplier`, else iCarousel's default: 2 for the cover flows, 1 otherwise.
    public var effectiveOffsetMultiplier: Double {
        offsetMultiplier ?? ((type == .coverflow || type == .coverflow2) ? 2 : 1)
    }

    /// Slot spacing in pixels: `item_width`, else the card's width (its height when vertical).
    public var effectiveItemWidth: Double {
        itemWidth ?? (vertical ? itemSize.height : itemSize.width)
    }
}

/// How raw input becomes intents (slop, tap limits, knob, dial).
public struct GestureOptions: Equatable, Sendable {
    /// Pixels a finger moves before a pan starts.
    public var panSlop = 10.0
    public var ignorePerpendicularSwipes = true
    /// A tap moves at most this many pixels…
    public var tapMaxMovement = 12.0
    /// …and lasts at most this many seconds.
    public var tapMaxDuration = 0.35
    public var detentsPerItem = 1
    /// Extra items per detent when the knob turns fast (0 is off).
    public var rotaryAcceleration = 0.0
    /// A detent that comes at most this many seconds after the previous one counts as "fast".
    public var rotaryFastInterval = 0.05
    /// Seconds of finger samples the release velocity is fitted over (least squares).
    public var velocityWindow = 0.1
    public var dial: DialOptions?
    public init() {}
}

/// An on-screen ring that turns the carousel by the angle a finger sweeps around its centre.
public struct DialOptions: Equatable, Sendable {
    /// Centre of the ring in screen pixels.
    public var center: Point2
    /// Touches closer to the centre than this (pixels) are not on the dial.
    public var innerRadius: Double
    /// Touches farther from the centre than this (pixels) are not on the dial.
    public var outerRadius: Double
    /// Items per full clockwise turn (negative: counter-clockwise moves forward).
    public var itemsPerTurn: Double
    public init(center: Point2, innerRadius: Double, outerRadius: Double, itemsPerTurn: Double) {
        self.center = center; self.innerRadius = innerRadius
        self.outerRadius = outerRadius; self.itemsPerTurn = itemsPerTurn
    }
}
