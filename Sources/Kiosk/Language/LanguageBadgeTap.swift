import Cards
import CarouselCore

/// The language badge as a control: a touch or a click that starts on it and ends (anywhere)
/// shows the next language. Its presses are the badge's alone — the carousel under it never
/// sees them — and a touch that starts elsewhere is never the badge's. Screen pixels, as input
/// arrives; the box is the drawn badge's with a margin half its height, so a finger that lands
/// near it (or on it where the pixel shift moved it) still finds it.
struct LanguageBadgeTap {
    /// The finger (or `pointerSlot`) that pressed on the badge and is still down.
    private var pressed: Int?
    private var pointer: (x: Double, y: Double) = (-1, -1)
    static let pointerSlot = -1

    /// What the badge makes of an event.
    enum Verdict: Equatable { case notOnBadge, held, tapped }

    /// `badge`: the badge's box in screen pixels, nil when it is not shown (then only a press
    /// already held on it is taken, to its end).
    mutating func take(_ event: InputEvent, badge: (x: Double, y: Double, width: Double, height: Double)?) -> Verdict {
        func onBadge(_ x: Double, _ y: Double) -> Bool {
            guard let b = badge else { return false }
            let m = b.height / 2
            return x >= b.x - m && x <= b.x + b.width + m && y >= b.y - m && y <= b.y + b.height + m
        }
        switch event {
        case .touchDown(let slot, let x, let y):
            guard pressed == nil, onBadge(x, y) else { return .notOnBadge }
            pressed = slot
            return .held
        case .touchMotion(let slot, _, _):
            return pressed == slot ? .held : .notOnBadge
        case .touchUp(let slot):
            guard pressed == slot else { return .notOnBadge }
            pressed = nil
            return .tapped
        case .touchCancel(let slot):
            guard pressed == slot else { return .notOnBadge }
            pressed = nil
            return .held
        case .pointerMotion(let x, let y):
            pointer = (x, y)
            return pressed == Self.pointerSlot ? .held : .notOnBadge
        case .pointerButton(let down):
            if down {
                guard pressed == nil, onBadge(pointer.x, pointer.y) else { return .notOnBadge }
                pressed = Self.pointerSlot
                return .held
            }
            guard pressed == Self.pointerSlot else { return .notOnBadge }
            pressed = nil
            return .tapped
        case .pointerAxis, .keyDown, .keyUp, .rotary, .headphones:
            return .notOnBadge
        }
    }
}
