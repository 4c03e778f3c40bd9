import Foundation

/// `cylinder` and `inverted-cylinder`: items on the faces of a prism that turns about the
/// vertical (horizontal) axis. The inverted cylinder hides back faces by default.
struct CylinderLayout: CarouselLayout {
    let env: LayoutEnvironment
    let inverted: Bool
    let ring: Ring
    let radius: Double

    init(_ env: LayoutEnvironment, inverted: Bool) {
        self.env = env
        self.inverted = inverted
        ring = Ring(env)
        // MAX(0.01, _itemWidth * spacing / 2 / tan(arc / 2 / count))
        radius = env.value(env.options.radius, default: max(0.01, (ring.slotWidth / 2 / tan(ring.arc / 2 / ring.count)).finiteOr(0.01)))
    }

    func transform(offset: Double) -> Transform3D {
        var r = radius, a = offset * ring.angleStep
        if inverted { r = -r; a = -a }
        let t = env.base.translated(0, 0, -r)
        let turned = env.vertical ? t.rotated(a, -1, 0, 0) : t.rotated(a, 0, 1, 0)
        return turned.translated(0, 0, r + 0.01)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }
    var computedVisibleSlots: Int { ring.visibleSlots(inverted: inverted) }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? !inverted }
}
