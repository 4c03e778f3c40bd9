import Foundation

/// One layout family: where an item sits for a given offset from the focus, how opaque it is,
/// and how many slots around the focus can show an item. The iCarousel families follow
/// `transformForItemViewWithOffset:`, `alphaForItemWithOffset:` and `updateNumberOfVisibleItems`
/// of iCarousel 1.8.3 term by term (docs/layouts.md).
protocol CarouselLayout {
    /// The item's transform (perspective and viewpoint included, focus shift not yet applied) for
    /// an item `offset` item units from the focus, in `CATransform3D` order.
    func transform(offset: Double) -> Transform3D
    /// The item's opacity at `offset`, 0…1.
    func alpha(offset: Double) -> Double
    /// Slots shown around the focus before the option `visible_items` and the item count apply.
    var computedVisibleSlots: Int { get }
    /// Upper bound of the computed slot count (iCarousel's `MAX_VISIBLE_ITEMS`, 30 on iOS).
    var maxVisibleSlots: Int { get }
    /// Finger pixels per item when dragging along the scroll axis (iCarousel: `itemWidth`).
    var dragUnit: Double { get }
    /// Draw items whose back faces the viewer (`m33 ≤ 0`)?
    var showsBackfaces: Bool { get }
    /// Corner radius (card pixels) the layout asks the renderer for.
    var cornerRadius: Double { get }
}

extension CarouselLayout {
    var maxVisibleSlots: Int { LayoutEnvironment.maxVisibleItems }
    var cornerRadius: Double { 0 }
}

/// Everything a layout family reads: the options, the view, the item count and coverflow2's
/// toggle. Values are sanitized so that no option can make a layout produce NaN.
struct LayoutEnvironment {
    /// iCarousel's `MAX_VISIBLE_ITEMS` (iOS).
    static let maxVisibleItems = 30

    let options: CarouselOptions
    let itemCount: Int
    let viewSize: Size2
    /// coverflow2's toggle in [-1, 1].
    let toggle: Double
    /// Slot spacing in pixels (iCarousel's `_itemWidth`), always finite and > 0.
    let itemWidth: Double
    /// The view's extent along the scroll axis (iCarousel's `width`).
    let extent: Double
    /// iCarousel's base transform: perspective in m34, then translated by −viewpoint_offset.
    let base: Transform3D

    /// The item count the circular types size their ring by: `itemCount`, except while an
    /// insertion or removal settles, when it moves smoothly from the old count to the new one.
    let ringItemCount: Double

    init(options: CarouselOptions, itemCount: Int, viewSize: Size2, toggle: Double, ringItemCount: Double? = nil) {
        self.options = options
        self.itemCount = max(0, itemCount)
        self.ringItemCount = (ringItemCount ?? Double(itemCount)).finiteOr(Double(itemCount))
        self.viewSize = Size2(viewSize.width.finiteOr(0), viewSize.height.finiteOr(0))
        self.toggle = toggle.finiteOr(0).clamped(-1, 1)
        let w = options.effectiveItemWidth
        itemWidth = (w.isFinite && w > 0) ? w : 1
        extent = options.vertical ? self.viewSize.height : self.viewSize.width
        var t = Transform3D.identity
        t.m34 = options.perspective.finiteOr(-1.0 / 500.0)
        base = t.translated(-options.viewpointOffset.x.finiteOr(0), -options.viewpointOffset.y.finiteOr(0), 0)
    }

    var vertical: Bool { options.vertical }

    /// `valueForOption:withDefault:` for a real-valued option: the option when set and finite.
    func value(_ option: Double?, default value: Double) -> Double {
        if let o = option, o.isFinite { return o }
        return value
    }

    /// iCarousel's `alphaForItemWithOffset:` with the type's default `fadeMin`/`fadeMax`.
    func fadeAlpha(offset: Double, defaultFadeMin: Double = -.infinity, defaultFadeMax: Double = .infinity) -> Double {
        let fadeMin = options.fadeMin.map { $0.isNaN ? defaultFadeMin : $0 } ?? defaultFadeMin
        let fadeMax = options.fadeMax.map { $0.isNaN ? defaultFadeMax : $0 } ?? defaultFadeMax
        let fadeRange = value(options.fadeRange, default: 1)
        let fadeMinAlpha = value(options.fadeMinAlpha, default: 0).clamped(0, 1)
        var factor = 0.0
        if offset > fadeMax { factor = offset - fadeMax } else if offset < fadeMin { factor = fadeMin - offset }
        guard factor > 0 else { return 1 }
        guard fadeRange > 0 else { return fadeMinAlpha }
        return 1 - min(factor, fadeRange) / fadeRange * (1 - fadeMinAlpha)
    }

    /// iCarousel's `circularCarouselItemCount`: slots on a ring, a whole number ≥ 1 (between two
    /// whole numbers only while an insertion or removal settles).
    func circularCount(spacing: Double) -> Double {
        let ratio = extent / (spacing * itemWidth)
        var count: Double
        if ratio.isFinite {
            // NSInteger count = MIN(MAX_VISIBLE_ITEMS, MAX(12, ceil(width / (spacing * _itemWidth)) * M_PI));
            count = min(Double(Self.maxVisibleItems), max(12, ratio.rounded(.up) * Double.pi)).rounded(.towardZero)
        } else {
            count = Double(Self.maxVisibleItems)
        }
        count = min(ringItemCount, count)
        if let c = options.count, c.isFinite { count = c.clamped(-1e6, 1e6).rounded(.towardZero) }
        return max(1, count)
    }

    /// `ceil(x) + 2`-style slot counts, safe against infinities.
    static func slots(_ x: Double) -> Int {
        x.isFinite ? Int(x.clamped(0, 1e6).rounded(.up)) : maxVisibleItems
    }

    /// Builds the family for `options.type`.
    func makeLayout() -> CarouselLayout {
        switch options.type {
        case .linear: return LinearLayout(self)
        case .rotary: return RotaryLayout(self, inverted: false)
        case .invertedRotary: return RotaryLayout(self, inverted: true)
        case .cylinder: return CylinderLayout(self, inverted: false)
        case .invertedCylinder: return CylinderLayout(self, inverted: true)
        case .wheel: return WheelLayout(self, inverted: false)
        case .invertedWheel: return WheelLayout(self, inverted: true)
        case .coverflow: return CoverFlowLayout(self, toggles: false)
        case .coverflow2: return CoverFlowLayout(self, toggles: true)
        case .timeMachine: return TimeMachineLayout(self, inverted: false)
        case .invertedTimeMachine: return TimeMachineLayout(self, inverted: true)
        case .conveyorBelt: return ConveyorBeltLayout(self)
        case .scaling: return ScalingPagerLayout(self)
        case .custom: return CustomPathLayout.make(self)
        }
    }
}

extension Double {
    /// The value, or `fallback` when it is NaN or infinite.
    func finiteOr(_ fallback: Double) -> Double { isFinite ? self : fallback }
    /// The value limited to `lo…hi` (NaN becomes `lo`).
    func clamped(_ lo: Double, _ hi: Double) -> Double { self >= lo ? (self <= hi ? self : hi) : lo }
}

/// What the circular types (rotary, cylinder, wheel and their inverted forms) share: iCarousel's
/// slot count, arc, spacing and the angle between neighbours.
struct Ring {
    let spacing: Double
    /// Slots on the ring (`circularCarouselItemCount`).
    let count: Double
    let arc: Double
    /// Radians between neighbours (`arc / count` unless `angle` is set).
    let angleStep: Double
    /// Arc length one slot takes, in pixels (`itemWidth · spacing`).
    let slotWidth: Double

    init(_ env: LayoutEnvironment) {
        spacing = env.value(env.options.spacing, default: 1)
        count = env.circularCount(spacing: spacing)
        arc = env.value(env.options.arc, default: 2 * Double.pi)
        angleStep = env.value(env.options.angle, default: arc / count)
        slotWidth = env.itemWidth * spacing
    }

    /// iCarousel's visible items: the whole ring, or `ceil(count / 2)` for the inverted types.
    func visibleSlots(inverted: Bool) -> Int { inverted ? Int((count / 2).rounded(.up)) : Int(count.rounded(.up)) }
}
