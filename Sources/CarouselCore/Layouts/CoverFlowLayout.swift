/// `coverflow` and `coverflow2`: the centre item flat, the others turned by `tilt · 90°` about the
/// vertical (horizontal) axis and stacked `spacing · item_width` apart. coverflow2 flips the two
/// items next to the focus with a short animation (the engine's `toggle`) on slow drags.
struct CoverFlowLayout: CarouselLayout {
    let env: LayoutEnvironment
    let toggles: Bool
    let tilt: Double
    let spacing: Double

    init(_ env: LayoutEnvironment, toggles: Bool) {
        self.env = env
        self.toggles = toggles
        tilt = env.value(env.options.tilt, default: 0.9)
        spacing = env.value(env.options.spacing, default: 0.25)
    }

    /// iCarousel's `clampedOffset`, including coverflow2's toggle cases.
    func clampedOffset(_ offset: Double) -> Double {
        var clamped = offset.clamped(-1, 1)
        guard toggles else { return clamped }
        let toggle = env.toggle
        if toggle > 0 {
            if offset <= -0.5 { clamped = -1 }
            else if offset <= 0.5 { clamped = -toggle }
            else if offset <= 1.5 { clamped = 1 - toggle }
        } else {
            if offset > 0.5 { clamped = 1 }
            else if offset > -0.5 { clamped = -toggle }
            else if offset > -1.5 { clamped = -1 - toggle }
        }
        return clamped
    }

    func transform(offset: Double) -> Transform3D {
        let c = clampedOffset(offset)
        let x = (c * 0.5 * tilt + offset * spacing) * env.itemWidth
        let z = abs(c) * -env.itemWidth * 0.5
        let angle = -c * Double.pi / 2 * tilt
        if env.vertical { return env.base.translated(0, x, z).rotated(angle, -1, 0, 0) }
        return env.base.translated(x, 0, z).rotated(angle, 0, 1, 0)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }

    var computedVisibleSlots: Int { LayoutEnvironment.slots(env.extent / (env.itemWidth * spacing)) + 2 }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
