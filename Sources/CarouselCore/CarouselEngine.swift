import Foundation

/// The carousel's state (scroll offset in item units, velocity, running animation, current
/// index) and its physics. It never reads a clock: time comes in through `apply(_:now:)` and
/// `tick(now:)`, so the same inputs always give the same states.
public final class CarouselEngine {
    private enum Motion: Equatable {
        case idle
        case dragging
        /// Gliding from `from` to `to` between `start` and `start + duration`, easing out.
        case decelerating(from: Double, to: Double, start: Double, duration: Double)
        /// An explicit scroll (scroll_to, keys), easing in and out.
        case animating(from: Double, to: Double, start: Double, duration: Double)
    }

    public private(set) var options: CarouselOptions
    public private(set) var itemCount: Int
    /// Position of the focus in item units: item `i` sits at offset `i - scrollOffset`.
    public private(set) var scrollOffset: Double = 0
    public private(set) var currentIndex: Int = 0
    private var motion = Motion.idle
    private var events: [TimedCarouselEvent] = []
    private var lastTime = 0.0

    public init(options: CarouselOptions, itemCount: Int) {
        self.options = options
        self.itemCount = max(0, itemCount)
    }

    /// True while the engine needs ticks (a drag, a glide, an animation or autoscroll).
    public var isMoving: Bool { motion != .idle || options.autoscroll != 0 }

    /// Whether the ring wraps around (explicit option, else the type's default).
    public var wraps: Bool {
        if let w = options.wrap { return w }
        switch options.type {
        case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel: return true
        default: return false
        }
    }

    /// Slot spacing in pixels.
    public var itemWidth: Double {
        options.itemWidth ?? (options.vertical ? options.itemSize.height : options.itemSize.width)
    }

    private var offsetMultiplier: Double {
        options.offsetMultiplier ?? ((options.type == .coverflow || options.type == .coverflow2) ? 2 : 1)
    }

    /// Events since the last call, oldest first.
    public func takeEvents() -> [TimedCarouselEvent] {
        defer { events.removeAll() }
        return events
    }

    private func emit(_ e: CarouselEvent, _ now: Double) { events.append(TimedCarouselEvent(time: now, event: e)) }

    private func clampedOffset(_ o: Double) -> Double {
        guard itemCount > 0 else { return 0 }
        if wraps { return o }
        return min(max(o, 0), Double(itemCount - 1))
    }

    private func wrappedIndex(_ i: Int) -> Int {
        guard itemCount > 0 else { return 0 }
        return ((i % itemCount) + itemCount) % itemCount
    }

    private func updateCurrentIndex(_ now: Double) {
        let i = wrappedIndex(Int((scrollOffset).rounded()))
        if i != currentIndex, itemCount > 0 {
            currentIndex = i
            emit(.currentIndexChanged(index: i), now)
        }
    }

    private func endMotion(_ now: Double) {
        switch motion {
        case .decelerating: emit(.decelerationEnded, now)
        case .animating: emit(.scrollAnimationEnded, now)
        case .dragging: emit(.dragEnded, now)
        case .idle: break
        }
        motion = .idle
    }

    private func animate(to target: Double, duration: Double?, _ now: Double) {
        endMotion(now)
        let d = max(0, duration ?? options.scrollDuration)
        if d == 0 || target == scrollOffset {
            scrollOffset = target
            updateCurrentIndex(now)
            return
        }
        motion = .animating(from: scrollOffset, to: target, start: now, duration: d)
        emit(.scrollAnimationBegan, now)
    }

    /// The offset to scroll by to reach `index` (the shortest way round when wrapping).
    private func distance(toIndex index: Int) -> Double {
        let target = Double(index)
        guard wraps, itemCount > 0 else { return target - scrollOffset }
        var d = (target - scrollOffset).truncatingRemainder(dividingBy: Double(itemCount))
        if d > Double(itemCount) / 2 { d -= Double(itemCount) }
        if d < -Double(itemCount) / 2 { d += Double(itemCount) }
        return d
    }

    /// Feeds one intent at time `now` (seconds).
    public func apply(_ intent: Intent, now: Double) {
        lastTime = now
        guard itemCount > 0 else { return }
        switch intent {
        case .dragBegan:
            guard options.scrollEnabled else { return }
            endMotion(now)
            motion = .dragging
            emit(.dragBegan, now)
        case .dragMoved(let pixels):
            guard motion == .dragging else { return }
            scrollOffset -= pixels * offsetMultiplier * options.scrollSpeed / itemWidth
            if !wraps { scrollOffset = min(max(scrollOffset, -options.bounceDistance), Double(itemCount - 1) + options.bounceDistance) }
            updateCurrentIndex(now)
        case .dragEnded(let velocity):
            guard motion == .dragging else { return }
            motion = .idle
            emit(.dragEnded, now)
            glide(itemsPerSecond: -velocity * options.scrollSpeed / itemWidth, now)
        case .dialMoved(let items):
            scrollOffset = clampedOffset(scrollOffset + items)
            updateCurrentIndex(now)
        case .dialEnded(let v):
            glide(itemsPerSecond: v, now)
        case .tap:
            break
        case .step(let n):
            animate(to: clampedOffset(scrollOffset.rounded() + Double(n)), duration: nil, now)
        case .select:
            emit(.selected(index: currentIndex), now)
        case .home:
            animate(to: scrollOffset + distance(toIndex: 0), duration: nil, now)
        case .cancel:
            animate(to: clampedOffset(scrollOffset.rounded()), duration: nil, now)
        case .scrollTo(let index, let duration):
            animate(to: scrollOffset + distance(toIndex: index), duration: duration, now)
        case .scrollBy(let items, let duration):
            animate(to: clampedOffset(scrollOffset + items), duration: duration, now)
        }
    }

    private func glide(itemsPerSecond v: Double, _ now: Double) {
        let rate = min(max(options.decelerationRate, 0), 0.999)
        var distance = v / (60 * (1 - rate))
        var target = scrollOffset + distance
        if options.stopAtItemBoundary { target = target.rounded() }
        target = clampedOffset(target)
        distance = target - scrollOffset
        if distance == 0 { return }
        let duration = min(2.0, max(0.15, abs(distance) * 2 / max(abs(v), 1e-6)))
        motion = .decelerating(from: scrollOffset, to: target, start: now, duration: duration)
        emit(.decelerationBegan, now)
    }

    /// Advances the physics to `now`.
    public func tick(now: Double) {
        let dt = max(0, now - lastTime)
        lastTime = now
        switch motion {
        case .idle:
            if options.autoscroll != 0, itemCount > 0 {
                scrollOffset = clampedOffset(scrollOffset + options.autoscroll * dt)
            }
        case .dragging:
            break
        case .decelerating(let from, let to, let start, let duration):
            let p = min(1, (now - start) / duration)
            scrollOffset = from + (to - from) * (1 - (1 - p) * (1 - p))
            if p >= 1 { scrollOffset = to; endMotion(now) }
        case .animating(let from, let to, let start, let duration):
            let p = min(1, (now - start) / duration)
            let e = p < 0.5 ? 2 * p * p : 1 - pow(-2 * p + 2, 2) / 2
            scrollOffset = from + (to - from) * e
            if p >= 1 { scrollOffset = to; endMotion(now) }
        }
        updateCurrentIndex(now)
    }

    /// Items to draw for a view of `viewSize`, back to front.
    public func layout(viewSize: Size2) -> [ItemPose] {
        guard itemCount > 0 else { return [] }
        let half = Int((viewSize.width / itemWidth / 2).rounded(.up)) + 1
        let centre = Int(scrollOffset.rounded())
        var poses: [ItemPose] = []
        for slot in (centre - half)...(centre + half) {
            if !wraps && (slot < 0 || slot >= itemCount) { continue }
            let offset = Double(slot) - scrollOffset
            var t = Transform3D.identity
            t.m34 = options.perspective
            t = t.translated(-options.viewpointOffset.x, -options.viewpointOffset.y, 0)
            t = options.vertical ? t.translated(0, offset * itemWidth, 0) : t.translated(offset * itemWidth, 0, 0)
            poses.append(pose(index: wrappedIndex(slot), offset: offset, transform: t, alpha: 1, viewSize: viewSize))
        }
        return poses.sorted { $0.depth < $1.depth }
    }

    private func pose(index: Int, offset: Double, transform t: Transform3D, alpha: Double, viewSize: Size2) -> ItemPose {
        let w = options.itemSize.width / 2, h = options.itemSize.height / 2
        let cx = viewSize.width / 2 + options.contentOffset.x
        let cy = viewSize.height / 2 + options.contentOffset.y
        let corners = [(-w, -h), (w, -h), (w, h), (-w, h)].map { (x, y) -> Point2 in
            let p = t.projectHomogeneous(x: x, y: y)
            return Point2(cx + p.x / p.w, cy + p.y / p.w)
        }
        return ItemPose(index: index, offset: offset, transform: t, corners: corners, alpha: alpha,
                        depth: t.depth(x: 0, y: 0) - abs(offset) * 1e-6)
    }

    /// Replaces options and item count (config reload) keeping the current item where possible.
    public func update(options: CarouselOptions, itemCount: Int, now: Double) {
        self.options = options
        self.itemCount = max(0, itemCount)
        scrollOffset = clampedOffset(scrollOffset)
        updateCurrentIndex(now)
    }
}
