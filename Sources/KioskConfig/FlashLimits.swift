/// How fast the kiosk may change the picture by itself (EN 301 549 11.2.3.1, WCAG 2.3.1: no
/// more than three flashes in any second). The worst content — cards the size of the screen,
/// alternately black and white — turns one transition per item passing; a flash is two. A file
/// that asks for more is warned about at its key (`ConfigWarnings`: check-config, and `run`'s
/// log) and held to these by the loader (`clamped`), so a config that loaded before still loads
/// (`FlashTests` measures them through `simulate`).
public enum FlashLimits {
    /// `[idle] attract_interval`'s least value in seconds: at most two steps a second.
    public static let shortestAttractInterval = 0.5
    /// `[carousel] autoscroll`'s and `[idle] attract_autoscroll`'s largest speed, items per second.
    public static let fastestAutoscroll = 3.0

    /// `config` with its speeds and attract interval brought within the limits (what
    /// `ConfigWarnings` warns about is what is changed here).
    public static func clamped(_ config: KioskConfiguration) -> KioskConfiguration {
        var c = config
        c.carousel.autoscroll = clampSpeed(c.carousel.autoscroll)
        c.idle.attractAutoscroll = clampSpeed(c.idle.attractAutoscroll)
        c.idle.attractInterval = max(c.idle.attractInterval, shortestAttractInterval)
        return c
    }

    static func clampSpeed(_ speed: Double) -> Double { min(fastestAutoscroll, max(-fastestAutoscroll, speed)) }
}
