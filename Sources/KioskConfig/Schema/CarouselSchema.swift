import CarouselCore

/// `[carousel]`: layout, physics and gesture keys (iCarousel's names in snake_case), and
/// `[[carousel.keyframes]]` for the custom path.
enum CarouselSchema {
    typealias Key = KeySpec<KioskConfiguration>

    static let twoPi = 2 * Double.pi
    static let coordinate = NumberRange.closed(-100_000, 100_000)

    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "carousel", doc: """
            The carousel's layout family, its shape and its physics. Defaults are iCarousel's; keys \
            whose default says *computed* take the value iCarousel computes for the type.
            """, prototype: KioskConfiguration(), keys: layout + shape + conveyor + physics + gestures,
            children: [.arrayOfTables(keyframes, make: { _, _ in PathKeyframe(offset: 0) }, store: storeKeyframes)],
            finish: finish)
    }

    static let layout: [Key] = [
        .choice("type", \.carousel.type, "The layout family: iCarousel's eleven types, `conveyor-belt`, the `scaling` pager, or `custom` (keyframes).",
                example: .rotary),
        .bool("vertical", \.carousel.vertical, "Lay the items out along the vertical axis (scrolling up and down)."),
        .size("item_size", \.carousel.itemSize, .aboveUpTo(0, 16384), "Card size `[width, height]` in pixels.", example: "[480, 360]"),
        .number("item_width", \.carousel.itemWidth, .aboveUpTo(0, 16384),
                "Slot spacing in pixels (iCarousel's `itemWidth`).", defaultText: "the card's width (height when vertical)", example: "520"),
        .number("perspective", \.carousel.perspective, .closed(-0.1, 0), "The m34 term of the view transform: −1/distance to the eye in pixels.",
                example: "-0.0015"),
        .point("viewpoint_offset", \.carousel.viewpointOffset, coordinate, "Moves the eye `[x, y]` pixels, seeing the carousel from off-centre.",
               example: "[0, -40]"),
        .point("content_offset", \.carousel.contentOffset, coordinate, "Moves the whole carousel `[x, y]` pixels on screen.", example: "[0, 20]"),
    ]

    static let shape: [Key] = [
        .number("count", \.carousel.count, .closed(1, 1_000_000), "Items around a full ring (rotary, cylinder, wheel kinds).",
                defaultText: "computed (iCarousel's formula from the item count and spacing)", example: "12"),
        .number("arc", \.carousel.arc, .closed(-twoPi, twoPi), "Angle in radians the ring spans.", defaultText: "computed (2π for rings)",
                example: "3.1416"),
        .number("radius", \.carousel.radius, .closed(0, 100_000), "Ring radius in pixels.", defaultText: "computed from count and item_width",
                example: "600"),
        .number("angle", \.carousel.angle, .closed(-twoPi, twoPi), "Angle in radians between neighbouring items of a ring.",
                defaultText: "computed (arc / count)", example: "0.5"),
        .number("tilt", \.carousel.tilt, .closed(-1, 1), "How far side items turn (cover flow, time machine).",
                defaultText: "computed (0.9 cover flow, 0.3 time machine)", example: "0.8"),
        .number("spacing", \.carousel.spacing, .closed(0, 100), "Gap between items as a multiple of item_width.",
                defaultText: "computed (0.25 cover flow, 1 otherwise)", example: "0.3"),
        .number("fade_min", \.carousel.fadeMin, coordinate, "Item offset left of (or above) which items start to fade.",
                defaultText: "computed (0 for inverted-time-machine, else no fade)", example: "-3"),
        .number("fade_max", \.carousel.fadeMax, coordinate, "Item offset right of (or below) which items start to fade.",
                defaultText: "computed (0 for time-machine, else no fade)", example: "3"),
        .number("fade_range", \.carousel.fadeRange, .closed(0, 100_000), "Item offsets over which an item fades to fade_min_alpha.",
                defaultText: "1", example: "1.5"),
        .number("fade_min_alpha", \.carousel.fadeMinAlpha, .closed(0, 1), "Opacity of a fully faded item.", defaultText: "0", example: "0.2"),
        .bool("show_backfaces", \.carousel.showBackfaces, "Draw items whose back faces the viewer.",
              defaultText: "computed (false for inverted-cylinder, else true)", example: "false"),
        .bool("wrap", \.carousel.wrap, "Scroll round from the last item to the first.",
              defaultText: "computed (true for closed rings, else false)", example: "true"),
        .number("offset_multiplier", \.carousel.offsetMultiplier, .closed(-100, 100), "Items scrolled per item width dragged.",
                defaultText: "computed (2 cover flows, 1 otherwise)", example: "1.5"),
        .int("visible_items", \.carousel.visibleItems, .closed(1, Double(CarouselOptions.visibleItemsLimit)), "Most items drawn at once.",
             defaultText: "computed per type", example: "9"),
        Key(name: "placeholders", type: .integer(.closed(0, 100)),
            doc: "Empty slots drawn on each side when too few items fill the row (iCarousel's placeholders; not when wrapping).",
            defaultOf: { String($0.carousel.placeholders) }, example: "2", apply: { $0.carousel.placeholders = $1.int }),
    ]

    static let conveyor: [Key] = [
        .int("max_items_on_front", \.carousel.maxItemsOnFront, .closed(1, 1000), "Conveyor belt: items on the front face.", example: "4"),
        .number("roller_radius", \.carousel.rollerRadius, .aboveUpTo(0, 100_000), "Conveyor belt: radius of the rollers in pixels.", example: "120"),
        .number("rotate_factor", \.carousel.rotateFactor, .closed(-1, 1), "Conveyor belt: tilt of the belt, as a fraction of a right angle.",
                example: "0.15"),
        .point("focus_point", \.carousel.focusPoint, .closed(0, 1), "Where offset 0 sits, as fractions `[x, y]` of the view.", example: "[0.5, 0.7]"),
        .number("inset", \.carousel.inset, .closed(0, 16384), "Scaling pager: space in pixels on each side of the centred page.", example: "60"),
        .number("corner_radius", \.carousel.cornerRadius, .closed(0, 16384),
                "Scaling pager: ScalingCarousel's corner radius of the pages, in pixels. Not drawn: the layout carries it, but the pages show each card's own `corner_radius` (`[theme.card]`, `[[item]]`).",
                example: "16"),
    ]

    static let physics: [Key] = [
        .number("tick_hz", \.carousel.tickHz, .closed(10, 1000), "Engine steps per second (independent of the display's refresh).", example: "120"),
        .number("scroll_speed", \.carousel.scrollSpeed, .closed(0, 100), "Multiplier of drag distance and fling speed.", example: "1.2"),
        .bool("scroll_enabled", \.carousel.scrollEnabled, "Allow scrolling by touch and pointer (keys, knob and dial still work).", example: "true"),
        .number("deceleration_rate", \.carousel.decelerationRate, NumberRange(min: 0, max: 1, maxExclusive: true),
                "Fraction of the fling speed kept per 1/60 s; glide distance is v / (60 · (1 − rate)).", example: "0.9"),
        .bool("bounces", \.carousel.bounces, "Overshoot and spring back past the ends (when not wrapping).", example: "false"),
        .number("bounce_distance", \.carousel.bounceDistance, .closed(0, 100), "How far past the ends it may overshoot, in items.", example: "0.5"),
        .bool("stop_at_item_boundary", \.carousel.stopAtItemBoundary, "A fling ends exactly on an item.", example: "true"),
        .bool("scroll_to_item_boundary", \.carousel.scrollToItemBoundary, "A drag released without speed settles on the nearest item.",
              example: "true"),
        .bool("paging", \.carousel.paging, "At most one item per swipe.", example: "true"),
        .number("scroll_duration", \.carousel.scrollDuration, .closed(0, 60), "Seconds a programmatic or tap scroll takes (ease-in-out).",
                example: "0.5"),
        .number("autoscroll", \.carousel.autoscroll, .closed(-100, 100),
                "Items per second the carousel turns on its own; 0 is off. Faster than 3 either way is turned at 3, with a warning (no flashing, docs/accessibility.md).",
                example: "0.1"),
        .bool("center_item_when_selected", \.carousel.centerItemWhenSelected,
              "A tap on a side item scrolls it to the centre (a tap on the centred item selects it); false: a tap selects the item it hits where it is.",
              example: "true"),
    ]

    static let gestures: [Key] = [
        .number("pan_slop", \.gestures.panSlop, .closed(0, 1000), "Pixels a finger moves before a drag starts.", example: "12"),
        .bool("ignore_perpendicular_swipes", \.gestures.ignorePerpendicularSwipes,
              "Ignore swipes across the scroll axis (they do not start a drag).", example: "true"),
        .number("tap_max_movement", \.gestures.tapMaxMovement, .closed(0, 1000), "A tap moves at most this many pixels.", example: "16"),
        .number("tap_max_duration", \.gestures.tapMaxDuration, .aboveUpTo(0, 10), "A tap lasts at most this many seconds.", example: "0.3"),
        .number("velocity_window", \.gestures.velocityWindow, .aboveUpTo(0, 1),
                "Seconds of finger movement the release speed is fitted over (least squares, not the last sample alone).", example: "0.08"),
    ]

    /// `[[carousel.keyframes]]`.
    static var keyframes: TableSpec<PathKeyframe> {
        TableSpec(name: "keyframes", doc: """
            The `custom` path: the pose of an item sitting at `offset` items from the focus. Between \
            keyframes poses are interpolated smoothly, past the ends extrapolated. Give at least two, \
            each with its own offset.
            """, prototype: PathKeyframe(offset: 0), keys: [
                KeySpec(name: "offset", type: .number(.closed(-1000, 1000)), doc: "Item offset from the focus this pose belongs to.",
                        defaultOf: { _ in nil }, example: "-1", required: true, apply: { $0.offset = $1.number }),
                .triple("translate", \.translate, coordinate, "Move `[x, y, z]` in pixels.", example: "[-420, 0, -200]"),
                .triple("rotate", \.rotate, .closed(-3600, 3600), "Rotation `[x, y, z]` about each axis in degrees.", example: "[0, 35, 0]"),
                .number("scale", \.scale, .closed(0, 100), "Size factor.", example: "0.8"),
                .number("alpha", \.alpha, .closed(0, 1), "Opacity.", example: "0.7"),
            ])
    }

    static func storeKeyframes(_ config: inout KioskConfiguration, _ frames: [(PathKeyframe, ConfigPath)], _ decoder: ConfigDecoder) {
        decoder.reportRepeats(frames.map { ($0.0.offset, $0.1) }, at: "offset") { offset, first in
            "'offset' \(ValueFormat.number(offset)) repeats keyframe #\(first + 1)'s; each keyframe needs its own offset"
        }
        config.carousel.keyframes = frames.map(\.0).sorted { $0.offset < $1.offset }
    }

    static func finish(_ config: inout KioskConfiguration) -> [TableProblem] {
        var problems: [TableProblem] = []
        let c = config.carousel
        if let lo = c.fadeMin, let hi = c.fadeMax, lo > hi {
            problems.append(TableProblem("fade_min", "'fade_min' (\(ValueFormat.number(lo))) must not be greater than 'fade_max' (\(ValueFormat.number(hi)))"))
        }
        if c.type == .custom && c.keyframes.count < 2 {
            problems.append(TableProblem("type", "type = \"custom\" needs at least two [[carousel.keyframes]] (it has \(c.keyframes.count))"))
        }
        return problems
    }
}
