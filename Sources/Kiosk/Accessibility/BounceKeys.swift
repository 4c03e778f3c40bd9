import CarouselCore

/// Bounce keys (EN 301 549 5.8, `[input] bounce_keys`): a press identical to the previous
/// keystroke that comes within the delay of it is not accepted, and neither is its
/// release; a different key, or the same one after the delay, counts. Every other event passes.
/// `KioskContext.input` asks it first, so no component and not the carousel hears a bounce.
struct BounceKeys {
    /// The last press accepted, and when.
    private var last: (key: KeyName, time: Double)?
    /// Keys whose press was ignored: their release is ignored too.
    private var ignored: Set<KeyName> = []

    /// True when `event` at `now` is to be delivered; `delay`: seconds after a press during
    /// which the same key is ignored (0: every press counts).
    mutating func admit(_ event: InputEvent, now: Double, delay: Double) -> Bool {
        switch event {
        case .keyDown(let key):
            if delay > 0, let last, last.key == key, now - last.time <= delay {
                ignored.insert(key)
                return false
            }
            last = (key, now)
            return true
        case .keyUp(let key):
            return ignored.remove(key) == nil
        default:
            return true
        }
    }
}
