/// `custom`: a path given as keyframes at item offsets (translate, rotate in degrees, scale,
/// alpha), each channel interpolated by a monotone cubic and extended linearly past the first
/// and last keyframe. Fewer than two usable keyframes fall back to `linear`, as iCarousel's
/// custom type does without a delegate.
struct CustomPathLayout: CarouselLayout {
    let env: LayoutEnvironment
    let tx, ty, tz, rx, ry, rz, scale, opacity: MonotoneCubic

    /// The layout for `env`'s keyframes, or `LinearLayout` when fewer than two are usable.
    static func make(_ env: LayoutEnvironment) -> CarouselLayout {
        let frames = usableKeyframes(env.options.keyframes)
        guard frames.count >= 2 else { return LinearLayout(env) }
        return CustomPathLayout(env, frames)
    }

    /// Finite keyframes sorted by offset; of several at one offset the last one given wins.
    static func usableKeyframes(_ frames: [PathKeyframe]) -> [PathKeyframe] {
        let finite = frames.enumerated().filter { _, k in
            [k.offset, k.translate.x, k.translate.y, k.translate.z, k.rotate.x, k.rotate.y, k.rotate.z, k.scale, k.alpha]
                .allSatisfy { $0.isFinite }
        }
        let sorted = finite.sorted { a, b in a.element.offset != b.element.offset ? a.element.offset < b.element.offset : a.offset < b.offset }
        var out: [PathKeyframe] = []
        for (_, k) in sorted {
            if let last = out.last, last.offset == k.offset { out[out.count - 1] = k } else { out.append(k) }
        }
        return out
    }

    private init(_ env: LayoutEnvironment, _ frames: [PathKeyframe]) {
        self.env = env
        let xs = frames.map(\.offset)
        func channel(_ f: (PathKeyframe) -> Double) -> MonotoneCubic { MonotoneCubic(xs: xs, ys: frames.map(f)) }
        tx = channel { $0.translate.x }; ty = channel { $0.translate.y }; tz = channel { $0.translate.z }
        rx = channel { $0.rotate.x }; ry = channel { $0.rotate.y }; rz = channel { $0.rotate.z }
        scale = channel { $0.scale }; opacity = channel { $0.alpha }
    }

    func transform(offset o: Double) -> Transform3D {
        let degrees = Double.pi / 180
        let s = max(0, scale.value(at: o))
        return env.base
            .translated(tx.value(at: o), ty.value(at: o), tz.value(at: o))
            .rotated(rx.value(at: o) * degrees, 1, 0, 0)
            .rotated(ry.value(at: o) * degrees, 0, 1, 0)
            .rotated(rz.value(at: o) * degrees, 0, 0, 1)
            .scaled(s, s, s)
    }

    func alpha(offset: Double) -> Double { opacity.value(at: offset).clamped(0, 1) * env.fadeAlpha(offset: offset) }

    var computedVisibleSlots: Int { LayoutEnvironment.maxVisibleItems }
    var dragUnit: Double { env.itemWidth }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
