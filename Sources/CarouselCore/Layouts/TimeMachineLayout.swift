/// `time-machine` and `inverted-time-machine`: items recede in a slanted stack; those in front of
/// the focus fade out (`fade_max` 0; `fade_min` 0 when inverted).
struct TimeMachineLayout: CarouselLayout {
    let env: LayoutEnvironment
    let inverted: Bool
    let tilt: Double
    let spacing: Double

    init(_ env: LayoutEnvironment, inverted: Bool) {
        self.env = env
        self.inverted = inverted
        tilt = env.value(env.options.tilt, default: 0.3)
        spacing = env.value(env.options.spacing, default: 1)
    }

    func transform(offset: Double) -> Transform3D {
        var t = tilt, o = offset
        if inverted { t = -t; o = -o }
        let w = env.itemWidth
        return env.vertical ? env.base.translated(0, o * w * t, o * w * spacing)
                            : env.base.translated(o * w * t, 0, o * w * spacing)
    }

    func alpha(offset: Double) -> Double {
        inverted ? env.fadeAlpha(offset: offset, defaultFadeMin: 0) : env.fadeAlpha(offset: offset, defaultFadeMax: 0)
    }

    var computedVisibleSlots: Int { LayoutEnvironment.maxVisibleItems }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
