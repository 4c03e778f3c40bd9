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

/// The clips (`SceneVideo`): a card's face while its clip plays, the quads that replace the scene
/// while a clip plays on the whole screen, the input and intents that clip takes.
protocol ScenePlayback: AnyObject {
    /// True while a clip plays or is about to start on the centred card (fixed-step drivers step).
    var wantsTicks: Bool { get }
    /// Whether `event` is the full-screen clip's (the session gives it nothing else then).
    func takes(_ event: InputEvent, now: Double) -> Bool
    /// Whether `intent` waits for the full-screen clip (or ends it) instead of reaching the engine.
    func holds(_ intent: Intent, now: Double) -> Bool
    /// The engine was set moving at `now` (the centred card's clip stops).
    func carouselMoved(now: Double)
    /// Picks the clips' frames for `now` (on each tick).
    func update(now: Double)
    /// The face drawn instead of the pipeline's for item `index`; nil: the pipeline's.
    func face(at index: Int) -> Texture?
    /// The quads drawn instead of the scene (over black); nil: the scene.
    func fullscreenQuads() -> [Quad]?
    /// The screen's size or render scale changed at `now`.
    func screenChanged(now: Double)
    /// The session's configuration is `config` from now on.
    func reload(_ config: KioskConfiguration)
}
