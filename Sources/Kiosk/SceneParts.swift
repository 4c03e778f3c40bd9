import Cards
import CarouselCore
import KioskConfig
import Raster

// What `CarouselSession` asks of the parts its owner adds to the scene; the owner
// (`KioskBehavior`) holds them and gives them to the session, which keeps only weak references.

/// Moves the whole scene over time (`PixelShiftState`).
protocol SceneShifting: AnyObject {
    /// Takes the step due at `now` (the session's tick and every frame ask).
    func update(now: Double)
    /// The session's configuration is `config` from `now` on.
    func reload(_ config: KioskConfiguration, now: Double)
    /// The scene's quads moved to where they are drawn.
    func shifted(_ quads: [Quad]) -> [Quad]
    /// `event` mapped back into the layout's coordinates (`renderScale`: the frame's).
    func unshifted(_ event: InputEvent, renderScale: Double) -> InputEvent
}

/// Message cards drawn instead of the carousel (`SceneCards`).
protocol SceneCovering: AnyObject {
    /// The card drawn instead of the carousel; nil: the carousel.
    var shownMessage: MessageCard? { get }
    /// Whether `event` is the cards' (the session gives it nothing else then).
    func swallows(_ event: InputEvent) -> Bool
}
