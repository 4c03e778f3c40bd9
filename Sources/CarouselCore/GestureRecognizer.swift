/// Turns input events into intents: pans (with slop and release velocity), taps, keys, knob
/// detents. The first finger drives; others are ignored. The pointer acts as a finger.
public final class GestureRecognizer {
    public var options: GestureOptions
    /// Scroll along y instead of x.
    public var vertical: Bool

    private struct Track {
        var slot: Int
        var start: Point2
        var last: Point2
        var startTime: Double
        var panning = false
        var samples: [(t: Double, p: Double)] = []
    }
    private var track: Track?
    private var pointer = Point2.zero
    private var pointerDown = false
    private static let pointerSlot = -1

    public init(options: GestureOptions, vertical: Bool) {
        self.options = options
        self.vertical = vertical
    }

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
            guard let t = track, t.slot == slot else { return [] }
            track = nil
            return t.panning ? [.dragEnded(velocity: 0)] : []
        case .pointerMotion(let x, let y):
            pointer = Point2(x, y)
            return pointerDown ? move(slot: Self.pointerSlot, pointer, now) : []
        case .pointerButton(let pressed):
            pointerDown = pressed
            return pressed ? down(slot: Self.pointerSlot, pointer, now) : up(slot: Self.pointerSlot, now)
        case .pointerAxis(let delta):
            let steps = Int(delta.rounded())
            return steps == 0 ? [] : [.step(steps)]
        case .keyDown(let key):
            switch key {
            case .left, .up: return [.step(-1)]
            case .right, .down: return [.step(1)]
            case .enter: return [.select]
            case .home: return [.home]
            case .escape: return [.cancel]
            }
        case .keyUp:
            return []
        case .rotary(let delta):
            let per = max(1, options.detentsPerItem)
            let steps = delta / per
            return steps == 0 ? [] : [.step(steps)]
        }
    }

    private func down(slot: Int, _ p: Point2, _ now: Double) -> [Intent] {
        guard track == nil else { return [] }
        track = Track(slot: slot, start: p, last: p, startTime: now, samples: [(now, along(p))])
        return []
    }

    private func move(slot: Int, _ p: Point2, _ now: Double) -> [Intent] {
        guard var t = track, t.slot == slot else { return [] }
        var out: [Intent] = []
        if !t.panning {
            let d = p - t.start
            let a = abs(vertical ? d.y : d.x), perp = abs(vertical ? d.x : d.y)
            if max(a, perp) >= options.panSlop {
                if options.ignorePerpendicularSwipes && perp > a {
                    track = nil
                    return []
                }
                t.panning = true
                out.append(.dragBegan)
            }
        }
        if t.panning {
            let delta = along(p) - along(t.last)
            if delta != 0 { out.append(.dragMoved(pixels: delta)) }
            t.last = p
        }
        t.samples.append((now, along(p)))
        t.samples.removeAll { now - $0.t > 0.1 }
        track = t
        return out
    }

    private func up(slot: Int, _ now: Double) -> [Intent] {
        guard let t = track, t.slot == slot else { return [] }
        track = nil
        if t.panning { return [.dragEnded(velocity: Self.velocity(t.samples))] }
        if now - t.startTime <= options.tapMaxDuration { return [.tap(t.start)] }
        return []
    }

    /// Least-squares slope of position over time: the release velocity in pixels per second.
    static func velocity(_ s: [(t: Double, p: Double)]) -> Double {
        guard s.count >= 2 else { return 0 }
        let n = Double(s.count)
        let mt = s.reduce(0) { $0 + $1.t } / n, mp = s.reduce(0) { $0 + $1.p } / n
        var num = 0.0, den = 0.0
        for x in s { num += (x.t - mt) * (x.p - mp); den += (x.t - mt) * (x.t - mt) }
        return den > 1e-12 ? num / den : 0
    }
}
