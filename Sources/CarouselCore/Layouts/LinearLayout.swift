/// `linear`: items in a straight row, `spacing · item_width` apart.
struct LinearLayout: CarouselLayout {
    let env: LayoutEnvironment
    let spacing: Double

    init(_ env: LayoutEnvironment) {
        self.env = env
        spacing = env.value(env.options.spacing, default: 1)
    }

    func transform(offset: Double) -> Transform3D {
        // CATransform3DTranslate(transform, offset * _itemWidth * spacing, 0, 0) (y when vertical)
        let d = offset * env.itemWidth * spacing
        return env.vertical ? env.base.translated(0, d, 0) : env.base.translated(d, 0, 0)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }

    var computedVisibleSlots: Int {
        // width -= contentOffset along the axis; ceil(width / (_itemWidth * spacing)) + 2
        let o = env.options.contentOffset
        let width = env.extent - (env.vertical ? o.y : o.x)
        return LayoutEnvironment.slots(width / (env.itemWidth * spacing)) + 2
    }

    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
