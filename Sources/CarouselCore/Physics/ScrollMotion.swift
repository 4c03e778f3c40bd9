/// iCarousel's timing constants and curves (iCarousel.m 1.8.3).
enum ICarouselPhysics {
    /// `DECELERATION_MULTIPLIER`.
    static let decelerationMultiplier = 30.0
    /// `SCROLL_SPEED_THRESHOLD`, items per second.
    static let scrollSpeedThreshold = 2.0
    /// `DECELERATE_THRESHOLD`, items.
    static let decelerateThreshold = 0.1
    /// `SCROLL_DISTANCE_THRESHOLD`, items.
    static let scrollDistanceThreshold = 0.1
    /// `MIN_TOGGLE_DURATION`, `MAX_TOGGLE_DURATION`, seconds.
    static let minToggleDuration = 0.2, maxToggleDuration = 0.4
    /// `INSERT_DURATION`, seconds.
    static let insertDuration = 0.4
    /// `FLOAT_ERROR_MARGIN`.
    static let epsilon = 0.000001

    /// `easeInOut:` — cubic in, cubic out.
    static func easeInOut(_ t: Double) -> Double {
        let t = t.clamped(0, 1)
        if t < 0.5 { let u = t * 2; return 0.5 * u * u * u }
        let u = t * 2 - 2
        return 0.5 * u * u * u + 1
    }

    /// `decelerationDistance`: −v² / (2·(−v·30·(1 − rate))) = v / (60·(1 − rate)) items.
    static func decelerationDistance(velocity v: Double, rate: Double) -> Double {
        v / (2 * decelerationMultiplier * (1 - rate))
    }

    /// `shouldDecelerate`.
    static func shouldDecelerate(velocity v: Double, rate: Double) -> Bool {
        abs(v) > scrollSpeedThreshold && abs(decelerationDistance(velocity: v, rate: rate)) > decelerateThreshold
    }

    /// coverflow2's toggle duration for a scroll speed of `v` items per second.
    static func toggleDuration(velocity v: Double) -> Double {
        let f = v != 0 ? min(1, max(0, 1 / abs(v))) : 1
        return minToggleDuration + (maxToggleDuration - minToggleDuration) * f
    }
}

/// An explicit scroll (scroll_to, scroll_by, keys, the snap to an item boundary): from `from` to
/// `to` (item units, unwrapped) between `start` and `start + duration`, eased in and out.
struct ScrollAnimation: Equatable {
    var from: Double
    var to: Double
    var start: Double
    var duration: Double
    /// Started by a drag's release (coverflow2 keeps its toggle animation then, as iCarousel's `didDrag`).
    var afterDrag: Bool

    /// The offset at `t` and whether the animation is over.
    func offset(at t: Double) -> (offset: Double, done: Bool) {
        let p = duration > 0 ? min(1, (t - start) / duration) : 1
        if p >= 1 { return (to, true) }
        return (from + (to - from) * ICarouselPhysics.easeInOut(p), false)
    }
}

/// A fling gliding to rest under constant deceleration, as iCarousel's `step` computes it:
/// `d(t) = v·t − v·t² / (2T)` with `T = |distance| / |v / 2|`, so it stops exactly at `from + distance`.
struct Glide: Equatable {
    var from: Double
    var distance: Double
    var start: Double
    var duration: Double

    /// A glide covering `distance` items at an initial speed of `|speed|` items per second.
    init(from: Double, distance: Double, speed: Double, start: Double) {
        self.from = from
        self.distance = distance
        self.start = start
        duration = abs(distance) / abs(0.5 * speed)
    }

    /// Initial velocity along `distance` (iCarousel keeps the release velocity's sign; when a
    /// bound or a page limit turns the target around, this one follows the distance instead).
    var velocity: Double { duration > 0 ? 2 * distance / duration : 0 }

    func offset(at t: Double) -> (offset: Double, done: Bool) {
        let time = min(duration, max(0, t - start))
        if time >= duration - 1e-12 { return (from + distance, true) }
        let v = velocity
        return (from + v * time - 0.5 * (v / duration) * time * time, false)
    }
}
