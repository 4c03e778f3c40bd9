/// How fast the kiosk may change the picture by itself (EN 301 549 11.2.3.1, WCAG 2.3.1: no
/// more than three flashes in any second). The worst content — cards the size of the screen,
/// alternately black and white — turns one transition per item passing; a flash is two. These
/// bounds are the configuration's ranges, so a file cannot ask for more (`FlashTests` measures
/// them through `simulate`).
public enum FlashLimits {
    /// `[idle] attract_interval`'s least value in seconds: at most two steps a second.
    public static let shortestAttractInterval = 0.5
    /// `[carousel] autoscroll`'s and `[idle] attract_autoscroll`'s largest speed, items per second.
    public static let fastestAutoscroll = 3.0
}
