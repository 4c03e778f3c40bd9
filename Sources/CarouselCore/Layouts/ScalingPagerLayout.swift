/// `scaling`: the ScalingCarousel pager. One page per item: the card scaled to fill
/// `extent − 2·inset` (or the view's height, if that is smaller), pages side by side, so the
/// neighbours peek in at least `inset` at the sides. Neighbours shrink
/// to 90 % and fade to 85 %. ScalingCarousel computes `pct = |W − |x − inset|| / W`, which leaves
/// the centred page at 95 % opacity and grows again past the neighbours; here
/// `pct = max(0, 1 − |offset|)`, so the centred page is fully opaque and both scale and alpha
/// fall monotonically with the distance (docs/layouts.md).
struct ScalingPagerLayout: CarouselLayout {
    static let scaleMinimum = 0.9
    static let alphaMinimum = 0.85

    let env: LayoutEnvironment
    /// Page spacing in pixels.
    let page: Double
    /// Card scale of the centred page.
    let fill: Double

    init(_ env: LayoutEnvironment) {
        self.env = env
        let inset = env.options.inset.finiteOr(0)
        let room = max(1, env.extent - 2 * inset)
        let card = env.options.itemSize
        let along = env.vertical ? card.height : card.width
        let across = env.vertical ? card.width : card.height
        let crossExtent = env.vertical ? env.viewSize.width : env.viewSize.height
        var k = along > 0 ? room / along : 1
        if across > 0, crossExtent > 0 { k = min(k, crossExtent / across) }
        fill = k.isFinite && k > 0 ? k : 1
        page = along > 0 ? max(1, (fill * along).finiteOr(room)) : room
    }

    /// 1 at the focus, falling linearly to 0 one page away.
    func closeness(_ offset: Double) -> Double { max(0, 1 - abs(offset)) }

    func transform(offset: Double) -> Transform3D {
        let s = fill * (Self.scaleMinimum + (1 - Self.scaleMinimum) * closeness(offset))
        let d = offset * page
        let t = env.vertical ? env.base.translated(0, d, 0) : env.base.translated(d, 0, 0)
        return t.scaled(s, s, 1)
    }

    func alpha(offset: Double) -> Double {
        (Self.alphaMinimum + (1 - Self.alphaMinimum) * closeness(offset)) * env.fadeAlpha(offset: offset)
    }

    var computedVisibleSlots: Int { LayoutEnvironment.slots(env.extent / page) + 2 }
    var dragUnit: Double { page }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
    var cornerRadius: Double { max(0, env.options.cornerRadius.finiteOr(0)) }
}
