import KioskConfig

/// The `[idle]` timings as the idle controller uses them. Every `…After` is seconds since the
/// last input; zero (or less) disables that stage.
public struct IdlePolicy: Equatable, Sendable {
    /// Attract mode starts after this long.
    public var attractAfter: Double
    /// Attract mode steps to the next item this often (when `autoscrollSpeed` is zero).
    public var attractInterval: Double
    /// When not zero, attract mode scrolls continuously at this many items per second
    /// (negative: backwards) instead of stepping.
    public var autoscrollSpeed: Double
    /// The carousel goes back to `homeItem` after this long (once per idle period).
    public var homeAfter: Double
    public var homeItem: Int
    /// The screen goes off after this long.
    public var blankAfter: Double
    /// "Do you need more time?" this long before going home or blanking; 0: no warning.
    public var warnBefore: Double = 0
    /// A woken gesture whose end never arrives (device unplugged mid-touch without a cancel)
    /// stops being swallowed after this long without events.
    public var swallowExpiry: Double = 10

    public init(attractAfter: Double = 0, attractInterval: Double = 5, autoscrollSpeed: Double = 0,
                homeAfter: Double = 0, homeItem: Int = 0, blankAfter: Double = 0) {
        self.attractAfter = attractAfter; self.attractInterval = attractInterval
        self.autoscrollSpeed = autoscrollSpeed; self.homeAfter = homeAfter
        self.homeItem = homeItem; self.blankAfter = blankAfter
    }

    /// From `[idle]` (`attract_autoscroll` is `autoscrollSpeed`).
    public init(_ settings: IdleSettings) {
        self.init(attractAfter: settings.attractAfter, attractInterval: settings.attractInterval,
                  autoscrollSpeed: settings.attractAutoscroll, homeAfter: settings.homeAfter,
                  homeItem: settings.homeItem, blankAfter: settings.blankAfter)
        warnBefore = settings.warnBefore
    }

    /// Attract mode steps (true) rather than autoscrolls, and the interval is usable.
    var steps: Bool { autoscrollSpeed == 0 && attractInterval > 0 }
}
