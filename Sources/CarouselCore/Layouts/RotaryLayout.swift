import Foundation

/// `rotary` and `inverted-rotary`: items face the viewer on a horizontal (vertical) ring.
struct RotaryLayout: CarouselLayout {
    let env: LayoutEnvironment
    let inverted: Bool
    let ring: Ring
    let radius: Double

    init(_ env: LayoutEnvironment, inverted: Bool) {
        self.env = env
        self.inverted = inverted
        ring = Ring(env)
        let half = ring.slotWidth / 2
        // MAX(_itemWidth * spacing / 2, _itemWidth * spacing / 2 / tan(arc / 2 / count))
        radius = env.value(env.options.radius, default: max(half, (half / tan(ring.arc / 2 / ring.count)).finiteOr(half)))
    }

    func transform(offset: Double) -> Transform3D {
        var r = radius, a = offset * ring.angleStep
        if inverted { r = -r; a = -a }
        return env.vertical ? env.base.translated(0, r * sin(a), r * cos(a) - r)
                            : env.base.translated(r * sin(a), 0, r * cos(a) - r)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }
    var computedVisibleSlots: Int { ring.visibleSlots(inverted: inverted) }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
