import CarouselCore

/// `[display] render_scale = "auto"`: decides when to draw at ½ and when to go back to full size,
/// from how long the frames of drags take. Pure logic (frame times in, a decision out), so it is
/// tested with made-up times.
///
/// - Only frames drawn while a finger is down count (a drag is when a missed frame shows).
/// - Down: at scale 1, when the median of the last `window` drag frames is longer than the
///   refresh interval, ½ is due.
/// - Up: at ½, when the median of the last `window` drag frames, times the pixel ratio (4 at ½:
///   what the same frames would cost at full size), fits in `fitMargin` of the interval, 1 is
///   due. The margin is the hysteresis: a scene that barely misses at 1 stays at ½.
/// - A due switch is taken only at `between(gestures:)`, never during a drag; the window starts
///   over at each switch.
public struct RenderScaleGovernor: Sendable {
    /// Seconds per refresh (1 / Hz).
    public let interval: Double
    /// Drag frames judged together.
    public let window: Int
    /// The scale `auto` goes down to.
    public let low: Double
    /// Going back to 1 needs the estimated full-size frame within this share of the interval.
    public let fitMargin: Double
    /// The scale in effect.
    public private(set) var scale = 1.0
    /// The last drag frames' durations at `scale` (at most `window`).
    public private(set) var recent: [Double] = []
    /// A switch decided and waiting for the end of the gesture.
    public private(set) var due: Double?

    public init(refreshRate: Double, window: Int = 8, low: Double = 0.5, fitMargin: Double = 0.6) {
        interval = 1 / max(1, refreshRate)
        self.window = max(1, window)
        self.low = low
        self.fitMargin = fitMargin
    }

    /// The median of `recent` (nil before `window` frames).
    public var median: Double? {
        guard recent.count >= window else { return nil }
        return recent.median()
    }

    /// One frame took `duration` seconds to draw and copy; `dragging`: a finger was down.
    public mutating func frame(duration: Double, dragging: Bool) {
        guard dragging, duration.isFinite, duration >= 0 else { return }
        recent.append(duration)
        if recent.count > window { recent.removeFirst(recent.count - window) }
        guard let m = median else { return }
        if scale >= 1 {
            due = m > interval ? low : nil
        } else {
            due = m / (scale * scale) <= fitMargin * interval ? 1 : nil
        }
    }

    /// A switch taken now: the scale it went from and to, and the median frame time that decided it.
    public struct Switch: Equatable, Sendable {
        public var from: Double
        public var to: Double
        public var medianFrameTime: Double
        public var frames: [Double]
    }

    /// Call when no gesture is going on (no finger down): takes a due switch.
    public mutating func betweenGestures() -> Switch? {
        guard let to = due, to != scale else { due = nil; return nil }
        let s = Switch(from: scale, to: to, medianFrameTime: median ?? 0, frames: recent)
        scale = to
        due = nil
        recent = []
        return s
    }
}
