/// Frame pacing by the clock, for presents that say nothing about vblank: DRM mode sets per
/// frame and flips that complete at once (virtual GPUs), fbdev, headless. At most one frame per
/// refresh period, on a steady grid: a frame that is late by less than a period keeps the grid
/// (the next slot is one period after the last), a later one starts it again from now.
struct RefreshCap: Sendable {
    /// Seconds between frames.
    private(set) var period: Double
    /// The earliest time of the next frame.
    private(set) var nextSlot = -Double.infinity

    /// A cap at `refreshRate` Hz (at least 1).
    init(refreshRate: Double) { period = 1 / max(1, refreshRate) }

    /// Changes the rate (a new mode); the grid starts again at the next frame.
    mutating func setRefreshRate(_ hz: Double) { period = 1 / max(1, hz) }

    /// True when a frame may be presented at `now`.
    func allows(_ now: Double) -> Bool { now >= nextSlot }

    /// When the next frame may go, if that is later than `now`.
    func wakeTime(after now: Double) -> Double? { nextSlot > now ? nextSlot : nil }

    /// Records a frame presented at `now`.
    mutating func presented(at now: Double) {
        nextSlot = (now - nextSlot) < period ? nextSlot + period : now + period
    }
}
