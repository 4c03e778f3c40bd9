/// `wheel` and `inverted-wheel`: items on the spokes of a wheel turning in the screen plane,
/// its hub below (to the left of, when vertical) the view centre.
struct WheelLayout: CarouselLayout {
    let env: LayoutEnvironment
    let inverted: Bool
    let ring: Ring
    let radius: Double

    init(_ env: LayoutEnvironment, inverted: Bool) {
        self.env = env
        self.inverted = inverted
        ring = Ring(env)
        // _itemWidth * spacing * count / arc
        radius = env.value(env.options.radius, default: (ring.slotWidth * ring.count / ring.arc).finiteOr(env.itemWidth))
    }

    func transform(offset: Double) -> Transform3D {
        var r = radius, a = ring.angleStep
        if inverted { r = -r; a = -a }
        if env.vertical {
            return env.base.translated(-r, 0, 0).rotated(a * offset, 0, 0, 1).translated(r, 0, offset * 0.01)
        }
        return env.base.translated(0, r, 0).rotated(a * offset, 0, 0, 1).translated(0, -r, offset * 0.01)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }

    /// The whole wheel when its rim fits in the view, else `ceil(count / 2) + 1`.
    var computedVisibleSlots: Int {
        if radius - env.itemWidth / 2 < min(env.viewSize.width, env.viewSize.height) / 2 { return Int(ring.count.rounded(.up)) }
        return Int((ring.count / 2).rounded(.up)) + 1
    }

    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
