/// One item as laid out, with the slot it fills (a wrapping ring with few items fills several
/// slots with the same item).
struct PlacedItem {
    var pose: ItemPose
    /// Slot position `k` (item `k mod itemCount` when wrapping) and its offset `k − scrollOffset`.
    var slot: Int
    var slotOffset: Double
}

/// A layout and what it was computed from: it holds while nothing it depends on changed.
struct LayoutCache {
    var generation: UInt64
    var time: Double
    var placed: [PlacedItem]
}

extension CarouselEngine {
    /// Items to draw in the engine's `viewSize`, back to front: only the visible slots around
    /// the focus are touched, so the cost does not depend on the item count. The result is kept
    /// until something it depends on changes, so a tap's hit test uses the layout the frame was
    /// drawn from instead of computing it again.
    public func layout() -> [ItemPose] { currentPlacedItems().map(\.pose) }

    /// The items as they would be drawn in a view of `size` (the engine's own `viewSize` is not
    /// changed; `layout()` when the sizes are the same).
    public func layout(viewSize size: Size2) -> [ItemPose] {
        size == viewSize ? layout() : placedItems(in: size).map(\.pose)
    }

    /// The data index of the front-most drawn item under `point` (screen pixels) in a view of
    /// `size` (default: the engine's `viewSize`), if any.
    public func itemIndex(at point: Point2, viewSize size: Size2? = nil) -> Int? {
        let placed = size.map { $0 == viewSize ? currentPlacedItems() : placedItems(in: $0) } ?? currentPlacedItems()
        return Self.frontmostHit(point, in: placed)?.index
    }

    /// Something a layout depends on changed (offset, toggle, size, options, items, transitions):
    /// the cached one is stale.
    func layoutInputsChanged() {
        layoutGeneration &+= 1
        layoutCache = nil
    }

    /// The layout of the engine's present state, computed once per state.
    func currentPlacedItems() -> [PlacedItem] {
        let time = clock.time
        if let c = layoutCache, c.generation == layoutGeneration, c.time == time { return c.placed }
        let placed = placedItems(in: viewSize)
        layoutCache = LayoutCache(generation: layoutGeneration, time: time, placed: placed)
        return placed
    }

    /// The slots that may show an item, as iCarousel's `loadUnloadViews` picks them: `visible`
    /// slots starting `visible / 2` before the current one (kept inside `0..<itemCount` when not
    /// wrapping, widened by `placeholders` slots on each side). A wrapping ring keeps every slot even with fewer items than slots, showing items
    /// again instead of leaving a gap (iCarousel shows each item once and lets them pop).
    func visibleSlots(_ layout: CarouselLayout) -> Range<Int> {
        guard itemCount > 0 else { return 0..<0 }
        var visible = min(layout.maxVisibleSlots, max(0, layout.computedVisibleSlots))
        if let v = options.visibleItems { visible = v }
        visible = min(max(0, visible), CarouselOptions.visibleItemsLimit)
        let placeholders = wraps ? 0 : max(0, options.placeholders)
        if !wraps { visible = min(visible, itemCount + 2 * placeholders) }
        let centre = wraps ? Int(scrollOffset.rounded()) : currentIndex
        var start = centre - visible / 2
        if !wraps { start = max(-placeholders, min(itemCount + placeholders - visible, start)) }
        return start..<(start + visible)
    }

    /// Lays out every visible slot: offset (with insert/remove displacement), alpha, transform
    /// (with the focus-point shift), back-face culling, corners; sorted back to front.
    func placedItems(in viewSize: Size2) -> [PlacedItem] {
        guard itemCount > 0, viewSize.width.isFinite, viewSize.height.isFinite else { return [] }
        let now = clock.time
        let env = LayoutEnvironment(options: options, itemCount: itemCount, viewSize: viewSize, toggle: toggle,
                                    ringItemCount: transitions.easedItemCount(itemCount, at: now))
        let layout = env.makeLayout()
        let focus = options.focusPoint
        let shift = Transform3D.translation(((focus.x.finiteOr(0.5)) - 0.5) * env.viewSize.width,
                                            ((focus.y.finiteOr(0.5)) - 0.5) * env.viewSize.height, 0)
        let cx = env.viewSize.width / 2 + options.contentOffset.x.finiteOr(0)
        let cy = env.viewSize.height / 2 + options.contentOffset.y.finiteOr(0)
        let hw = options.itemSize.width.finiteOr(0) / 2, hh = options.itemSize.height.finiteOr(0) / 2
        var placed: [PlacedItem] = []
        for k in visibleSlots(layout) {
            let isPlaceholder = !wraps && (k < 0 || k >= itemCount)
            let index = isPlaceholder ? k : clampedIndex(k)
            let slotOffset = Double(k) - scrollOffset
            let change = isPlaceholder ? (displacement: 0.0, alpha: 1.0) : transitions.effect(on: index, at: now)
            let offset = slotOffset + change.displacement
            let alpha = layout.alpha(offset: offset) * change.alpha
            guard alpha > 0, alpha.isFinite else { continue }
            let itemTransform = layout.transform(offset: offset)
            // iCarousel hides an item whose back faces the viewer unless show_backfaces.
            if !layout.showsBackfaces && !(itemTransform.m33 > 0) { continue }
            let t = itemTransform.concatenating(shift)
            var corners: [Point2] = []
            corners.reserveCapacity(4)
            var inFront = true
            for (x, y) in [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)] {
                let p = t.projectHomogeneous(x: x, y: y)
                if !(p.w > 1e-9) { inFront = false; break }
                corners.append(Point2(cx + p.x / p.w, cy + p.y / p.w))
            }
            guard inFront, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), t.isFinite else { continue }
            let pose = ItemPose(index: index, offset: offset, transform: t, corners: corners,
                                alpha: min(1, alpha), depth: t.depth(x: 0, y: 0), cornerRadius: layout.cornerRadius,
                                isPlaceholder: isPlaceholder)
            placed.append(PlacedItem(pose: pose, slot: k, slotOffset: slotOffset))
        }
        // Back to front: by depth, then (as iCarousel's compareViewDepth) farther from the focus first.
        placed.sort { a, b in
            if a.pose.depth != b.pose.depth { return a.pose.depth < b.pose.depth }
            if abs(a.slotOffset) != abs(b.slotOffset) { return abs(a.slotOffset) > abs(b.slotOffset) }
            return a.slot < b.slot
        }
        return placed
    }

    /// The front-most drawn item (never a placeholder) whose projected quad contains `point`,
    /// in the layout of the present state (the one the last frame was drawn from, if nothing
    /// moved since).
    func hitTest(_ point: Point2) -> (index: Int, slotOffset: Double)? {
        Self.frontmostHit(point, in: currentPlacedItems())
    }

    static func frontmostHit(_ point: Point2, in placed: [PlacedItem]) -> (index: Int, slotOffset: Double)? {
        for item in placed.reversed() where !item.pose.isPlaceholder && quad(item.pose.corners, contains: point) {
            return (item.pose.index, item.slotOffset)
        }
        return nil
    }

    /// Whether the convex quad `c` (either winding) contains `p`, edges included.
    static func quad(_ c: [Point2], contains p: Point2) -> Bool {
        guard c.count == 4 else { return false }
        var positive = false, negative = false
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross > 1e-9 { positive = true } else if cross < -1e-9 { negative = true }
            if positive && negative { return false }
        }
        return positive || negative
    }
}
