import Cards
import CarouselCore

/// A message card shown over the carousel for a while (the USB stick's "new content" or its
/// problems). A touch, key or click ends it and does nothing else: the finger that ended it is
/// swallowed until it lifts, so the carousel does not move under a person reading the card.
public struct Notice: Equatable, Sendable {
    public var card: MessageCard
    /// When it ends by itself (session seconds); nil: when told.
    public var until: Double?
    /// False once ended while a touch that ended it is still down.
    public private(set) var isShown = true
    private var swallowedSlots: Set<Int> = []

    public init(card: MessageCard, until: Double?) {
        self.card = card
        self.until = until
    }

    /// The same notice, ended, still swallowing the touches that are down.
    init(ended n: Notice) {
        self = n
        isShown = false
    }

    /// True while touches that ended it are still down.
    var holdsInput: Bool { !swallowedSlots.isEmpty }

    /// Whether `event` is the notice's (ends it, or belongs to a touch that did); updates it.
    mutating func swallows(_ event: InputEvent) -> Bool {
        switch event {
        case .touchDown(let slot, _, _):
            guard isShown else { return false }
            swallowedSlots.insert(slot)
            isShown = false
            return true
        case .touchMotion(let slot, _, _):
            return swallowedSlots.contains(slot)
        case .touchUp(let slot), .touchCancel(let slot):
            return swallowedSlots.remove(slot) != nil
        case .keyDown, .pointerButton(pressed: true):
            guard isShown else { return false }
            isShown = false
            return true
        case .keyUp, .pointerButton, .pointerMotion, .pointerAxis, .rotary, .headphones:
            return false
        }
    }
}
