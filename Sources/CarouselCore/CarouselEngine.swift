import Foundation

/// The carousel's state (scroll offset in item units, running motion, current index) and its
/// physics, after iCarousel 1.8.3 (`didPan:`, `startDecelerating`, `step`, `didScroll`,
/// `scrollByOffset:duration:`, `didTap:`), with its known gaps closed (docs/physics.md).
///
/// It never reads a clock: time comes in through `apply(_:now:)` and `tick(now:)`, and the
/// physics advance only in fixed steps of `1 / tick_hz` seconds, so the same inputs always give
/// the same states and the same events.
public final class CarouselEngine {
    enum Motion: Equatable {
        case idle
        case dragging
        case decelerating(Glide)
        case scrolling(ScrollAnimation)
    }

    public private(set) var options: CarouselOptions { didSet { layoutInputsChanged() } }
    public private(set) var itemCount: Int { didSet { layoutInputsChanged() } }
    /// The view the carousel is drawn in, in pixels: `layout()` lays out in it, taps are hit
    /// tested and conveyor/pager drags are scaled against it. Its owner (the session) sets it at
    /// start and whenever the screen changes size; laying out never changes it.
    public var viewSize: Size2 { didSet { layoutInputsChanged() } }
    /// Position of the focus in item units: item `i` sits at offset `i - scrollOffset`. In
    /// `0..<itemCount` when the carousel wraps; within the bounce range otherwise.
    public private(set) var scrollOffset: Double = 0 { didSet { if scrollOffset != oldValue { layoutInputsChanged() } } }
    /// The item nearest the focus (0 when there are no items).
    public private(set) var currentIndex: Int = 0
    /// coverflow2's toggle in −1…1 (iCarousel's `toggle`).
    public private(set) var toggle: Double = 0 { didSet { if toggle != oldValue { layoutInputsChanged() } } }

    var motion = Motion.idle
    var clock: FixedStepClock
    private var events: [TimedCarouselEvent] = []
    /// A finger is down (not yet a pan): motion holds, autoscroll pauses.
    private(set) var held = false
    /// iCarousel's `startVelocity`, items per second.
    private var startVelocity = 0.0
    /// Unwrapped position during a drag, and the item the drag started on (for paging).
    private var dragPosition = 0.0
    private var dragAnchor = 0.0
    private var dragVelocity = VelocityTracker(window: 0.1)
    /// coverflow2: the toggle's value when its animation (re)started, and when.
    private var toggleStart = 0.0
    private var toggleTime = 0.0
    var transitions = ItemTransitions() { didSet { layoutInputsChanged() } }
    /// The last layout computed, for the hit test of a tap that comes before anything it depends
    /// on changed (`CarouselEngine+Layout`).
    var layoutCache: LayoutCache?
    /// Counts changes to what a layout depends on.
    var layoutGeneration: UInt64 = 0

    /// A carousel of `itemCount` items resting on item 0, shown in a view of `viewSize` pixels.
    public init(options: CarouselOptions, itemCount: Int, viewSize: Size2 = Size2(1280, 720)) {
        self.options = options
        self.itemCount = max(0, itemCount)
        self.viewSize = viewSize
        clock = FixedStepClock(hz: options.tickHz)
    }

    // MARK: - Derived values

    /// Whether the ring wraps around (`wrap`, else the type's default).
    public var wraps: Bool { options.wraps }

    /// Slot spacing in pixels (iCarousel's `itemWidth`).
    public var itemWidth: Double { LayoutEnvironment(options: options, itemCount: itemCount, viewSize: viewSize, toggle: 0).itemWidth }

    /// `offset_multiplier` or the type's default.
    public var offsetMultiplier: Double { options.effectiveOffsetMultiplier.finiteOr(1) }

    /// True while the engine needs ticks: a drag, a glide, an animation, autoscroll, coverflow2's
    /// toggle or an insertion/removal still settling.
    public var isMoving: Bool {
        if motion != .idle || !transitions.isEmpty { return true }
        if autoscrollRuns { return true }
        // coverflow2's toggle animates on its own only when it does not simply follow the offset.
        return options.type == .coverflow2 && !toggleFollowsOffset && toggleStart != 0
    }

    /// A finger (or the dial) is dragging the carousel.
    public var isDragging: Bool { motion == .dragging }
    /// A fling is gliding to rest.
    public var isDecelerating: Bool { if case .decelerating = motion { return true }; return false }
    /// An eased scroll (scroll_to, scroll_by, keys, knob, a tap, a snap to an item) is running.
    public var isScrolling: Bool { if case .scrolling = motion { return true }; return false }

    /// The layout family for the current options and view.
    func makeLayout() -> CarouselLayout {
        LayoutEnvironment(options: options, itemCount: itemCount, viewSize: viewSize, toggle: toggle).makeLayout()
    }

    private var decelerationRate: Double { options.decelerationRate.finiteOr(0.95).clamped(0, 0.999) }
    private var bounceDistance: Double { max(0, options.bounceDistance.finiteOr(1)) }
    private var scrollDuration: Double { max(0, options.scrollDuration.finiteOr(0.4)) }
    private var autoscrollSpeed: Double { options.autoscroll.finiteOr(0) }

    private var autoscrollRuns: Bool {
        guard autoscrollSpeed != 0, itemCount > 1, motion == .idle, !held else { return false }
        if wraps { return true }
        return autoscrollSpeed > 0 ? scrollOffset < Double(itemCount - 1) : scrollOffset > 0
    }

    // MARK: - Events

    /// Events since the last call, oldest first.
    public func takeEvents() -> [TimedCarouselEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    private func emit(_ e: CarouselEvent, _ now: Double) { events.append(TimedCarouselEvent(time: now, event: e)) }

    // MARK: - Offsets and indices (iCarousel's clampedIndex, clampedOffset, minScrollDistance)

    func clampedIndex(_ i: Int) -> Int {
        guard itemCount > 0 else { return 0 }
        if wraps { return ((i % itemCount) + itemCount) % itemCount }
        return min(max(0, i), itemCount - 1)
    }

    func clampedOffset(_ o: Double) -> Double {
        guard itemCount > 0 else { return 0 }
        let n = Double(itemCount)
        if wraps {
            let w = o - (o / n).rounded(.down) * n
            return w >= n ? 0 : w
        }
        return min(max(0, o), n - 1)
    }

    private func index(nearest o: Double) -> Int {
        let r = o.rounded()
        return clampedIndex(Int(r.clamped(-4e15, 4e15)))
    }

    /// Shortest signed distance from offset `from` to offset `to` (round the ring when wrapping).
    func minScrollDistance(from: Double, to: Double) -> Double {
        let direct = to - from
        guard wraps, itemCount > 0 else { return direct }
        var wrapped = min(to, from) + Double(itemCount) - max(to, from)
        if from < to { wrapped = -wrapped }
        return abs(direct) <= abs(wrapped) ? direct : wrapped
    }

    private var isOutOfRange: Bool {
        guard !wraps, itemCount > 0 else { return false }
        return abs(scrollOffset - clampedOffset(scrollOffset)) > ICarouselPhysics.epsilon
    }

    /// iCarousel's rubber band: drags and flings lose strength past the ends.
    private var bounceFactor: Double {
        guard !wraps, options.bounces, bounceDistance > 0 else { return 1 }
        return 1 - min(abs(scrollOffset - clampedOffset(scrollOffset)), bounceDistance) / bounceDistance
    }

    /// Pixels of finger travel per item.
    private var dragUnit: Double {
        let u = makeLayout().dragUnit
        return u.isFinite && u > 0 ? u : 1
    }

    // MARK: - didScroll

    /// Keeps the offset in range and reports a new current index (iCarousel's `didScroll`).
    private func didScroll(_ now: Double) {
        guard itemCount > 0 else { scrollOffset = 0; return }
        if !scrollOffset.isFinite { scrollOffset = Double(currentIndex) }
        if wraps || !options.bounces {
            scrollOffset = clampedOffset(scrollOffset)
        } else {
            let lo = -bounceDistance, hi = Double(itemCount - 1) + bounceDistance
            if scrollOffset < lo { scrollOffset = lo; startVelocity = 0 }
            else if scrollOffset > hi { scrollOffset = hi; startVelocity = 0 }
        }
        let newIndex = index(nearest: scrollOffset)
        if newIndex != currentIndex {
            let previous = currentIndex
            currentIndex = newIndex
            if !toggleFollowsOffset {
                let difference = minScrollDistance(from: Double(newIndex), to: Double(previous))
                toggleStart = difference.clamped(-1, 1)
                toggleTime = now
                toggle = toggleStart
            }
            emit(.currentIndexChanged(index: newIndex), now)
        }
    }

    // MARK: - coverflow2's toggle

    /// When the toggle simply follows the fractional offset (coverflow2 then looks like coverflow):
    /// gliding, animating (not the snap after a drag), autoscrolling, or past an end.
    private var toggleFollowsOffset: Bool {
        switch motion {
        case .decelerating: return true
        case .scrolling(let a): if !a.afterDrag { return true }
        case .dragging: break
        case .idle: if autoscrollSpeed != 0 && !held { return true }
        }
        return !wraps && (scrollOffset < 0 || scrollOffset >= Double(itemCount - 1))
    }

    private func updateToggle(_ now: Double) {
        if toggleFollowsOffset {
            toggle = scrollOffset - scrollOffset.rounded()
            toggleStart = toggle
            toggleTime = now
            return
        }
        guard toggleStart != 0 else { toggle = 0; return }
        let duration = ICarouselPhysics.toggleDuration(velocity: startVelocity)
        let p = (now - toggleTime) / duration
        if p >= 1 { toggleStart = 0; toggle = 0; return }
        toggle = toggleStart * (1 - ICarouselPhysics.easeInOut(p))
    }

    // MARK: - Time

    /// Advances the physics to `now` in fixed steps of `1 / tick_hz`.
    public func tick(now: Double) {
        clock.advance(to: now) { t, dt in step(at: t, dt: dt) }
    }

    /// Moves to a motion's offset at `t` (snapped when it is done); returns true when the motion
    /// ended (the engine is idle then).
    private func follow(_ position: (offset: Double, done: Bool), at t: Double) -> Bool {
        scrollOffset = position.done ? Self.snapped(position.offset) : position.offset
        didScroll(t)
        if position.done { motion = .idle }
        return position.done
    }

    private func step(at t: Double, dt: Double) {
        switch motion {
        case .scrolling(let a):
            if follow(a.offset(at: t), at: t) {
                emit(.scrollAnimationEnded, t)
                // An item removed under a running animation can leave its target past the end.
                if isOutOfRange && !held { settle(t, afterDrag: false) }
            }
        case .decelerating(let g):
            if follow(g.offset(at: t), at: t) {
                emit(.decelerationEnded, t)
                settle(t, afterDrag: false)
            }
        case .dragging:
            break
        case .idle:
            if autoscrollRuns {
                let next = scrollOffset + autoscrollSpeed * dt
                scrollOffset = wraps ? next : min(max(next, 0), Double(itemCount - 1))
                didScroll(t)
            }
        }
        updateToggle(t)
        transitions.prune(at: t)
    }

    // MARK: - Motions

    /// Ends whatever moves, reporting its end.
    private func stopMotion(_ now: Double) {
        switch motion {
        case .idle: return
        case .dragging: emit(.dragEnded, now)
        case .decelerating: emit(.decelerationEnded, now)
        case .scrolling: emit(.scrollAnimationEnded, now)
        }
        motion = .idle
    }

    /// Starts (or retargets) an eased scroll by `distance` items (iCarousel's `scrollByOffset:duration:`).
    private func scroll(by distance: Double, duration: Double, afterDrag: Bool, _ now: Double) {
        guard itemCount > 0, distance.isFinite else { return }
        var target = scrollOffset + distance
        if !wraps { target = clampedOffset(target) }
        let wasScrolling = isScrolling
        if wasScrolling, abs(pendingScroll - (target - scrollOffset)) < ICarouselPhysics.epsilon,
           abs(target - scrollOffset) >= ICarouselPhysics.epsilon {
            return // already heading there: keep the running animation's timing
        }
        if case .dragging = motion { stopMotion(now) }
        if case .decelerating = motion { stopMotion(now) }
        if duration <= 0 || abs(target - scrollOffset) < ICarouselPhysics.epsilon {
            if wasScrolling { motion = .idle; emit(.scrollAnimationEnded, now) }
            scrollOffset = Self.snapped(target)
            didScroll(now)
            return
        }
        motion = .scrolling(ScrollAnimation(from: scrollOffset, to: target, start: now, duration: duration, afterDrag: afterDrag))
        if !wasScrolling { emit(.scrollAnimationBegan, now) }
    }

    /// `x`, or the whole number it is within rounding error of (targets computed as
    /// `offset + (index − offset)` land exactly on the item).
    static func snapped(_ x: Double) -> Double {
        let r = x.rounded()
        return abs(x - r) < 1e-9 ? r : x
    }

    /// How far a running scroll animation still has to go, in items.
    private var pendingScroll: Double {
        if case .scrolling(let a) = motion { return a.to - a.offset(at: clock.time).offset }
        return 0
    }

    /// The index the carousel is heading for: the running animation's target, else the current one.
    public var targetIndex: Int {
        if case .scrolling(let a) = motion { return index(nearest: a.to) }
        if case .decelerating(let g) = motion { return index(nearest: g.from + g.distance) }
        return currentIndex
    }

    /// iCarousel's `startDecelerating` from the unwrapped position `position`. Returns false when
    /// there is nothing to glide.
    private func startDecelerating(from position: Double, _ now: Double) -> Bool {
        let rate = decelerationRate
        let distance = ICarouselPhysics.decelerationDistance(velocity: startVelocity, rate: rate)
        var end = position + distance
        if options.paging {
            end = distance > 0 ? position.rounded(.up) : position.rounded(.down)
            end = end.clamped(dragAnchor - 1, dragAnchor + 1)
        } else if options.stopAtItemBoundary {
            end = distance > 0 ? end.rounded(.up) : end.rounded(.down)
        }
        if !wraps {
            if options.bounces {
                end = end.clamped(-bounceDistance, Double(itemCount - 1) + bounceDistance)
            } else {
                end = clampedOffset(end)
            }
        }
        let d = end - position
        guard d != 0, d.isFinite, startVelocity != 0 else { return false }
        let glide = Glide(from: scrollOffset, distance: d, speed: startVelocity, start: now)
        guard glide.duration.isFinite, glide.duration > 0 else { return false }
        motion = .decelerating(glide)
        return true
    }

    /// After a drag or a glide: snap to an item boundary when `scroll_to_item_boundary` asks, and
    /// always back into range past an end.
    private func settle(_ now: Double, afterDrag: Bool) {
        guard itemCount > 0, motion == .idle else { return }
        let outOfRange = isOutOfRange
        guard outOfRange || (options.scrollToItemBoundary && autoscrollSpeed == 0) else { return }
        let d = minScrollDistance(from: scrollOffset, to: Double(currentIndex))
        if abs(d) < ICarouselPhysics.epsilon {
            scrollOffset = Double(currentIndex)
            return
        }
        scroll(by: d, duration: scrollDuration, afterDrag: afterDrag, now)
    }

    // MARK: - Intents

    /// Feeds one intent at time `now` (seconds). The physics first advance to `now`.
    public func apply(_ intent: Intent, now: Double) {
        tick(now: now)
        guard itemCount > 0 else { return }
        switch intent {
        case .fingerDown:
            held = true
            if case .dragging = motion { return }
            if options.scrollEnabled { stopMotion(now) }
        case .fingerUp:
            held = false
            if motion == .idle { settle(now, afterDrag: false) }
        case .dragBegan:
            beginDrag(now, dial: false)
        case .dragMoved(let pixels):
            guard motion == .dragging, pixels.isFinite else { return }
            moveDrag(by: -pixels * bounceFactor * offsetMultiplier / dragUnit, now)
        case .dragEnded(let velocity):
            guard motion == .dragging else { return }
            let v = velocity.isFinite ? velocity : 0
            endDrag(itemsPerSecond: -v * bounceFactor * options.scrollSpeed.finiteOr(1) / dragUnit, now)
        case .dialMoved(let items):
            guard items.isFinite else { return }
            if motion != .dragging { beginDrag(now, dial: true) }
            guard motion == .dragging else { return }
            moveDrag(by: items * bounceFactor, now)
        case .dialEnded(let itemsPerSecond):
            guard motion == .dragging else { held = false; settle(now, afterDrag: false); return }
            let v = itemsPerSecond.isFinite ? itemsPerSecond : 0
            endDrag(itemsPerSecond: v * bounceFactor * options.scrollSpeed.finiteOr(1), now)
        case .tap(let point):
            held = false
            tap(at: point, now)
        case .step(let n):
            step(byItems: n, now)
        case .select:
            emit(.selected(index: targetIndex), now)
        case .home:
            scrollTo(index: 0, duration: nil, now)
        case .cancel:
            held = false
            stopMotion(now)
            settle(now, afterDrag: false)
        case .scrollTo(let index, let duration):
            scrollTo(index: index, duration: duration, now)
        case .scrollBy(let items, let duration):
            scrollBy(items: items, duration: duration, now)
        }
        // Never left resting past an end.
        if motion == .idle, !held, isOutOfRange { settle(now, afterDrag: false) }
    }

    /// Starts a drag; `scroll_enabled = false` refuses pans but not the on-screen dial, which is
    /// a control of its own like the knob.
    private func beginDrag(_ now: Double, dial: Bool) {
        guard options.scrollEnabled || dial else { return }
        stopMotion(now)
        held = false
        motion = .dragging
        dragPosition = scrollOffset
        dragAnchor = scrollOffset.rounded()
        dragVelocity = VelocityTracker(window: 0.1)
        dragVelocity.add(time: now, position: dragPosition)
        startVelocity = 0
        emit(.dragBegan, now)
    }

    private func moveDrag(by items: Double, _ now: Double) {
        dragPosition += items
        if options.paging { dragPosition = dragPosition.clamped(dragAnchor - 1, dragAnchor + 1) }
        scrollOffset = wraps ? clampedOffset(dragPosition) : dragPosition
        didScroll(now)
        if !wraps { dragPosition = scrollOffset }
        dragVelocity.add(time: now, position: dragPosition)
        startVelocity = dragVelocity.velocity(at: now)
        updateToggle(now)
    }

    /// iCarousel's `didPan:` end: glide, or snap (one item on in the flick's direction when fast).
    private func endDrag(itemsPerSecond v: Double, _ now: Double) {
        motion = .idle
        startVelocity = v
        emit(.dragEnded, now)
        if ICarouselPhysics.shouldDecelerate(velocity: v, rate: decelerationRate), startDecelerating(from: dragPosition, now) {
            emit(.decelerationBegan, now)
            updateToggle(now)
            return
        }
        let outOfRange = isOutOfRange
        guard outOfRange || (options.scrollToItemBoundary && autoscrollSpeed == 0) else { updateToggle(now); return }
        let nearest = dragPosition.rounded()
        var target = nearest
        if abs(dragPosition - nearest) > ICarouselPhysics.epsilon, abs(v) > ICarouselPhysics.scrollSpeedThreshold,
           abs(dragPosition - nearest) > ICarouselPhysics.scrollDistanceThreshold {
            target = nearest + (v > 0 ? 1 : -1)
        }
        if options.paging { target = target.clamped(dragAnchor - 1, dragAnchor + 1) }
        if !wraps { target = clampedOffset(target) }
        let d = target - dragPosition
        if abs(d) < ICarouselPhysics.epsilon {
            scrollOffset = clampedOffset(target)
            didScroll(now)
        } else {
            scroll(by: d, duration: scrollDuration, afterDrag: true, now)
        }
        updateToggle(now)
    }

    /// Knob detents and keys: whole items from where the carousel is heading, so that quick
    /// steps add up instead of restarting from the current item.
    private func step(byItems n: Int, _ now: Double) {
        guard n != 0 else { return }
        let heading = scrollOffset + pendingScroll
        let base = n > 0 ? (heading + 1e-9).rounded(.down) : (heading - 1e-9).rounded(.up)
        scroll(by: base + Double(n) - scrollOffset, duration: scrollDuration, afterDrag: false, now)
    }

    /// iCarousel's `scrollToItemAtIndex:duration:` (shortest way round when wrapping).
    private func scrollTo(index: Int, duration: Double?, _ now: Double) {
        let i = clampedIndex(index)
        let d = minScrollDistance(from: scrollOffset, to: Double(i))
        scroll(by: d, duration: duration.map { max(0, $0.finiteOr(0)) } ?? scrollDuration, afterDrag: false, now)
    }

    /// iCarousel's `scrollByNumberOfItems:` for whole numbers (lands on a boundary), else `scrollByOffset:`.
    private func scrollBy(items: Double, duration: Double?, _ now: Double) {
        guard items.isFinite else { return }
        let d = duration.map { max(0, $0.finiteOr(0)) } ?? scrollDuration
        let distance: Double
        if items.rounded() == items {
            if items > 0 { distance = scrollOffset.rounded(.down) + items - scrollOffset }
            else if items < 0 { distance = scrollOffset.rounded(.up) + items - scrollOffset }
            else { distance = scrollOffset.rounded() - scrollOffset }
        } else {
            distance = items
        }
        scroll(by: distance, duration: d, afterDrag: false, now)
    }

    /// iCarousel's `didTap:` with the rule: a side item comes to the centre, the centred
    /// item is selected; a tap on nothing settles.
    private func tap(at point: Point2, _ now: Double) {
        stopMotion(now)
        guard let hit = hitTest(point) else {
            settle(now, afterDrag: false)
            return
        }
        let centred = abs(hit.slotOffset) < 0.5
        if centred {
            if options.scrollToItemBoundary || isOutOfRange {
                scroll(by: hit.slotOffset, duration: scrollDuration, afterDrag: false, now)
            }
            emit(.selected(index: hit.index), now)
        } else if options.centerItemWhenSelected {
            scroll(by: hit.slotOffset, duration: scrollDuration, afterDrag: false, now)
        } else {
            emit(.selected(index: hit.index), now)
            settle(now, afterDrag: false)
        }
    }

    // MARK: - Direct control

    /// Jumps to `offset` (iCarousel's `setScrollOffset:`), stopping any motion. The offset is kept
    /// in range as every offset is (wrapped round a ring, at most `bounce_distance` past an end) but
    /// not settled: `kiosk-carousel layout` shows exactly the offset asked for.
    public func setScrollOffset(_ offset: Double, now: Double) {
        tick(now: now)
        guard offset.isFinite else { return }
        stopMotion(now)
        scrollOffset = offset
        didScroll(now)
        updateToggle(now)
    }

    /// Replaces options and item count (config reload), keeping the current item where it still exists.
    public func update(options newOptions: CarouselOptions, itemCount newCount: Int, now: Double) {
        tick(now: now)
        let countChanged = max(0, newCount) != itemCount
        options = newOptions
        clock.setRate(newOptions.tickHz)
        let n = max(0, newCount)
        if countChanged {
            stopMotion(now)
            transitions.removeAll()
            if n > 0, currentIndex >= n { scrollOffset = Double(n - 1) }
        }
        itemCount = n
        if n == 0 { scrollOffset = 0; currentIndex = 0; motion = .idle; return }
        didScroll(now)
        if motion == .dragging {
            // The wrap mode or the bounds may have changed under the finger: carry on from here.
            dragPosition = scrollOffset
            dragAnchor = scrollOffset.rounded()
        }
        updateToggle(now)
        if motion == .idle, !held { settle(now, afterDrag: false) }
    }

    /// Inserts an item at `index` (0…itemCount): the centred item stays centred, the others slide
    /// to their new places and the new one fades in (iCarousel's `insertItemAtIndex:animated:`).
    public func insertItem(at index: Int, now: Double) {
        tick(now: now)
        let i = min(max(0, index), itemCount)
        let before = (offset: scrollOffset, count: itemCount)
        itemCount += 1
        if itemCount == 1 {
            scrollOffset = 0; currentIndex = 0
        } else if i <= currentIndex {
            // The centred item moves up one index; the offset follows it.
            shiftTargets(by: 1)
            scrollOffset += 1
        }
        transitions.record(.init(kind: .inserted, index: i, offsetBefore: before.offset, countBefore: before.count,
                                 offsetAfter: scrollOffset, countAfter: itemCount, wraps: wraps, start: now))
        didScroll(now)
    }

    /// Removes the item at `index`: the neighbours slide into the gap; removing the centred item
    /// brings its successor (the predecessor for the last item) (iCarousel's `removeItemAtIndex:animated:`).
    public func removeItem(at index: Int, now: Double) {
        tick(now: now)
        guard itemCount > 0, index >= 0, index < itemCount else { return }
        let wasLast = index == itemCount - 1
        let before = (offset: scrollOffset, count: itemCount, index: currentIndex)
        itemCount -= 1
        if itemCount == 0 {
            stopMotion(now)
            transitions.removeAll()
            scrollOffset = 0; currentIndex = 0
            return
        }
        if index < before.index || (index == before.index && wasLast) {
            // The offset follows the centred item (or, for the last one, its predecessor).
            shiftTargets(by: -1)
            scrollOffset -= 1
        }
        transitions.record(.init(kind: .removed, index: index, offsetBefore: before.offset, countBefore: before.count,
                                 offsetAfter: scrollOffset, countAfter: itemCount, wraps: wraps, start: now))
        didScroll(now)
        if index == before.index, !wasLast, currentIndex == before.index {
            // The centred item was replaced by its successor at the same index: say so.
            emit(.currentIndexChanged(index: currentIndex), now)
        }
    }

    /// Moves running motions along with an offset shift of `d` items (insert/remove).
    private func shiftTargets(by d: Double) {
        switch motion {
        case .scrolling(var a): a.from += d; a.to += d; motion = .scrolling(a)
        case .decelerating(var g): g.from += d; motion = .decelerating(g)
        case .dragging: dragPosition += d; dragAnchor += d
        case .idle: break
        }
    }
}
