import Foundation

/// Turns input events into intents: pans (slop, axis lock, perpendicular swipes ignored, release
/// velocity from a least-squares fit), the on-screen dial (`atan2` around its centre, unwrapped
/// across ±π), taps (movement and time limits), keys, wheel notches and knob detents. The first
/// finger drives; others are ignored until it lifts. The pointer acts as a finger.
public final class GestureRecognizer {
    public var options: GestureOptions
    /// Scroll along y instead of x.
    public var vertical: Bool

    private enum Mode { case pending, panning, dialing, rejected }

    private struct Finger {
        var slot: Int
        var start: Point2
        var last: Point2
        var startTime: Double
        var mode = Mode.pending
        /// Farthest the finger got from where it landed (pixels).
        var maxDistance = 0.0
        /// Starts inside the dial's ring.
        var onDial: Bool
        var angle = AngleUnwrapper()
        var velocity: VelocityTracker
    }

    private var finger: Finger?
    private var pointer = Point2.zero
    private var pointerDown = false
    private var detents = DetentAccumulator()
    private var wheel = DetentAccumulator()
    private static let pointerSlot = -1

    public init(options: GestureOptions, vertical: Bool) {
        self.options = options
        self.vertical = vertical
    }

    /// True while a finger (or the pointer button) is down.
    public var isTracking: Bool { finger != nil }

    private func along(_ p: Point2) -> Double { vertical ? p.y : p.x }

    /// Feeds one event; returns the intents it completes, in order.
    public func handle(_ event: InputEvent, now: Double) -> [Intent] {
        switch event {
        case .touchDown(let slot, let x, let y):
            return down(slot: slot, Point2(x, y), now)
        case .touchMotion(let slot, let x, let y):
            return move(slot: slot, Point2(x, y), now)
        case .touchUp(let slot):
            return up(slot: slot, now)
        case .touchCancel(let slot):
            return cancel(slot: slot)
        case .pointerMotion(let x, let y):
            pointer = Point2(x, y)
            return pointerDown ? move(slot: Self.pointerSlot, pointer, now) : []
        case .pointerButton(let pressed):
            guard pressed != pointerDown else { return [] }
            pointerDown = pressed
            return pressed ? down(slot: Self.pointerSlot, pointer, now) : up(slot: Self.pointerSlot, now)
        case .pointerAxis(let delta):
            guard delta.isFinite else { return [] }
            let n = wheel.add(delta, perItem: 1, acceleration: 0, fastInterval: 0, now: now)
            return n == 0 ? [] : [.step(n)]
        case .keyDown(let key):
            switch key {
            case .left, .up: return [.step(-1)]
            case .right, .down: return [.step(1)]
            case .enter: return [.select]
            case .home: return [.home]
            case .escape: return [.cancel]
            case .largeText, .highContrast, .pause: return []  // the kiosk's, not the carousel's
            }
        case .keyUp:
            return []
        case .rotary(let delta):
            let n = detents.add(Double(delta), perItem: max(1, options.detentsPerItem),
                                acceleration: options.rotaryAcceleration, fastInterval: options.rotaryFastInterval, now: now)
            return n == 0 ? [] : [.step(n)]
        }
    }

    /// Whether `p` lies on the dial's ring.
    public func isOnDial(_ p: Point2) -> Bool {
        guard let dial = options.dial else { return false }
        let r = (p - dial.center).length
        return r >= dial.innerRadius && r <= dial.outerRadius
    }

    private func down(slot: Int, _ p: Point2, _ now: Double) -> [Intent] {
        guard finger == nil, p.x.isFinite, p.y.isFinite else { return [] }
        var f = Finger(slot: slot, start: p, last: p, startTime: now, onDial: isOnDial(p),
                       velocity: VelocityTracker(window: options.velocityWindow))
        f.velocity.add(time: now, position: along(p))
        finger = f
        return [.fingerDown(p)]
    }

    private func move(slot: Int, _ p: Point2, _ now: Double) -> [Intent] {
        guard var f = finger, f.slot == slot, p.x.isFinite, p.y.isFinite else { return [] }
        defer { finger = f }
        f.maxDistance = max(f.maxDistance, (p - f.start).length)
        var out: [Intent] = []
        if f.mode == .pending, f.maxDistance >= options.panSlop {
            if f.onDial, let dial = options.dial {
                f.mode = .dialing
                f.angle = AngleUnwrapper(start: atan2(p.y - dial.center.y, p.x - dial.center.x))
                f.velocity.reset()
                f.velocity.add(time: now, position: 0)
                out.append(.dragBegan)
            } else {
                let d = p - f.start
                let a = abs(vertical ? d.y : d.x), perp = abs(vertical ? d.x : d.y)
                if options.ignorePerpendicularSwipes && perp > a {
                    f.mode = .rejected
                } else {
                    // Axis lock: from here on only motion along the scroll axis counts. The slop
                    // itself is not replayed, so the carousel does not jump when the pan starts.
                    f.mode = .panning
                    f.last = p
                    f.velocity.reset()
                    f.velocity.add(time: now, position: along(p))
                    out.append(.dragBegan)
                }
            }
            return out
        }
        switch f.mode {
        case .panning:
            let delta = along(p) - along(f.last)
            f.last = p
            f.velocity.add(time: now, position: along(p))
            if delta != 0 { out.append(.dragMoved(pixels: delta)) }
        case .dialing:
            guard let dial = options.dial else { break }
            let turned = f.angle.update(atan2(p.y - dial.center.y, p.x - dial.center.x))
            f.last = p
            f.velocity.add(time: now, position: f.angle.total)
            let items = turned / (2 * Double.pi) * dial.itemsPerTurn
            if items != 0, items.isFinite { out.append(.dialMoved(items: items)) }
        case .pending, .rejected:
            f.last = p
        }
        return out
    }

    private func up(slot: Int, _ now: Double) -> [Intent] {
        guard var f = finger, f.slot == slot else { return [] }
        finger = nil
        switch f.mode {
        case .panning:
            f.velocity.add(time: now, position: along(f.last))
            return [.dragEnded(velocity: f.velocity.velocity(at: now))]
        case .dialing:
            f.velocity.add(time: now, position: f.angle.total)
            let radiansPerSecond = f.velocity.velocity(at: now)
            return [.dialEnded(itemsPerSecond: radiansPerSecond / (2 * Double.pi) * (options.dial?.itemsPerTurn ?? 0))]
        case .pending:
            if f.maxDistance <= options.tapMaxMovement && now - f.startTime <= options.tapMaxDuration {
                return [.tap(f.start)]
            }
            return [.fingerUp]
        case .rejected:
            return [.fingerUp]
        }
    }

    private func cancel(slot: Int) -> [Intent] {
        guard let f = finger, f.slot == slot else { return [] }
        finger = nil
        switch f.mode {
        case .panning: return [.dragEnded(velocity: 0)]
        case .dialing: return [.dialEnded(itemsPerSecond: 0)]
        case .pending, .rejected: return [.fingerUp]
        }
    }
}

/// Follows an angle from `atan2` across the ±π seam, so that a full turn adds up to 2π.
public struct AngleUnwrapper: Sendable {
    private var last: Double?
    /// Radians turned since the start (positive: clockwise on screen, where y points down).
    public private(set) var total = 0.0

    public init(start: Double? = nil) { last = start }

    /// Takes the next `atan2` reading and returns the turn since the previous one, in −π…π.
    public mutating func update(_ angle: Double) -> Double {
        guard angle.isFinite else { return 0 }
        defer { last = angle }
        guard let l = last else { return 0 }
        let d = remainder(angle - l, 2 * Double.pi)
        total += d
        return d
    }
}

/// Turns knob detents (or wheel notches) into whole items: `perItem` detents per item, partial
/// detents kept until they add up, and `acceleration` extra items per detent when detents come
/// within `fastInterval` seconds of each other.
public struct DetentAccumulator: Sendable {
    private var detents = 0.0
    private var extra = 0.0
    private var lastTime: Double?

    public init() {}

    /// Adds `delta` detents at `now`; returns the whole items to step.
    public mutating func add(_ delta: Double, perItem: Int, acceleration: Double, fastInterval: Double, now: Double) -> Int {
        guard delta.isFinite, delta != 0 else { return 0 }
        let fast = lastTime.map { now - $0 <= fastInterval } ?? false
        lastTime = now
        let per = Double(max(1, perItem))
        detents += delta
        var items = (detents / per).rounded(.towardZero)
        detents -= items * per
        if fast, acceleration.isFinite, acceleration > 0 {
            extra += delta * acceleration
            let whole = (extra + (extra > 0 ? 1e-9 : -1e-9)).rounded(.towardZero)
            extra -= whole
            items += whole
        } else {
            extra = 0
        }
        return Int(items.clamped(-1e6, 1e6))
    }
}
