import Foundation

/// `conveyor-belt`: the ShinobiEssentials path. Items run down the front of a belt, over a
/// roller of `roller_radius` and back up behind it (a mirror image above the focus for negative
/// offsets). Vertical as in the tutorial when `vertical = true`; `vertical = false` turns the
/// same belt on its side (x for y, the y axis for the x axis).
struct ConveyorBeltLayout: CarouselLayout {
    let env: LayoutEnvironment
    let rollerRadius: Double
    let rollerBoundary: Double
    let itemSpacing: Double

    init(_ env: LayoutEnvironment) {
        self.env = env
        let r = env.options.rollerRadius
        rollerRadius = (r.isFinite && r > 0) ? r : 1
        // roller_boundary = height / 2 − roller_radius (at least one pixel on a view too small for it)
        rollerBoundary = max(1, env.extent / 2 - rollerRadius)
        // item_spacing = 2 · roller_boundary / max_items_on_front
        itemSpacing = 2 * rollerBoundary / Double(max(1, env.options.maxItemsOnFront))
    }

    /// Position along the belt's face axis and depth for an item `offset` items from the focus.
    func belt(offset: Double) -> (along: Double, z: Double) {
        let r = rollerRadius, rb = rollerBoundary
        let s = itemSpacing * abs(offset)
        var along: Double, z: Double
        if s < rb {
            along = s; z = 0
        } else if s < rb + Double.pi * r {
            let theta = (s - rb) / r
            along = rb + r * sin(theta); z = r * (cos(theta) - 1)
        } else {
            along = 2 * rb + Double.pi * r - s; z = -2 * r
        }
        return (offset < 0 ? -along : along, z)
    }

    func transform(offset: Double) -> Transform3D {
        let (along, z) = belt(offset: offset)
        let tilt = Double.pi / 2 * env.options.rotateFactor.finiteOr(0.1)
        let perspective = env.options.perspective.finiteOr(-1.0 / 500.0)
        if env.vertical {
            var t = Transform3D.translation(0, along, 0)
            t.m24 = 1.0 / 2000.0
            t.m34 = perspective
            return t.rotated(-tilt, 1, 0, 0).translated(0, 0, z)
        }
        var t = Transform3D.translation(along, 0, 0)
        t.m14 = 1.0 / 2000.0
        t.m34 = perspective
        return t.rotated(tilt, 0, 1, 0).translated(0, 0, z)
    }

    func alpha(offset: Double) -> Double { env.fadeAlpha(offset: offset) }

    /// Enough slots per side to cover the front, the roller and a view's length of the back.
    var computedVisibleSlots: Int {
        let perSide = LayoutEnvironment.slots((2 * rollerBoundary + Double.pi * rollerRadius + env.extent) / itemSpacing)
        return 2 * perSide + 1
    }

    var maxVisibleSlots: Int { 2 * LayoutEnvironment.maxVisibleItems }
    var dragUnit: Double { itemSpacing }
    var showsBackfaces: Bool { env.options.showBackfaces ?? true }
}
