import Foundation

/// `rotary` and `inverted-rotary`: items face the viewer on a horizontal (vertical) ring.
struct RotaryLayout: CarouselLayout {
    let env: LayoutEnvironment
    let inverted: Bool
    let count: Double
    let radius: Double
    let angleStep: Double

    init(_ env: LayoutEnvironment, inverted: Bool) {
        self.env = env
        self.inverted = inverted
        let spacing = env.value(env.options.spacing, default: 1)
        count = env.circularCount(spacing: spacing)
        let arc = env.value(env.options.arc, default: 2 * Double.pi)
        let w = env.itemWidth * spacing
        // MAX(_itemWidth * spacing / 2, _itemWidth * spacing / 2 / tan(arc / 2 / count))
        radius = env.value(env.options.radius, default: max(w / 2, (w / 2 / tan(arc / 2 / count)).finiteOr(w / 2)))
        angleStep = env.value(env.options.angle, default: arc / count)
    }

    func transform(offset: Double) -> Transform3D {
        var r = radius, a = offset * angleStep
        if inverted { r = -r; a = -a }
        return env.vertical ? env.base.translated(0, r * sin(a), r * cos(a) - r)
                            : env.base.translated(r * sin(a), 0, r * cos(a) - r)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }

    /// Rotary: `count`; inverted: `ceil(count / 2)`.
    var computedVisibleSlots: Int { inverted ? Int((count / 2).rounded(.up)) : Int(count) }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
