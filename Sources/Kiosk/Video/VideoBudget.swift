import KioskConfig
import Video

/// How a clip's player is set up from `[video]`: decoder choice, threads and how many decoded
/// frames may wait in its queue within `budget_mb`.
struct VideoBudget {
    let settings: VideoSettings

    /// Frames a player may queue when each holds `frameBytes`: up to 3, as many as
    /// `budget_mb` allows; 0 when not even one fits (the clip does not play).
    func queueDepth(frameBytes: Int) -> Int {
        let budget = settings.budgetMB << 20
        return min(3, budget / max(1, frameBytes))
    }

    /// Player options for a clip.
    func options(loop: Bool, queueDepth: Int, synchronous: Bool) -> VideoPlayer.Options {
        var o = VideoPlayer.Options()
        o.loop = loop
        o.queueDepth = max(1, queueDepth)
        o.hardware = settings.hardware == .off ? .off : .auto
        o.threads = settings.threads
        o.synchronous = synchronous
        return o
    }

    /// Why a clip whose frames hold `frameBytes` each cannot play within the budget.
    func refusal(frameBytes: Int, what: String) -> String {
        let mb = Double(frameBytes) / Double(1 << 20)
        return "\(what): one decoded frame needs \(String(format: "%.1f", mb)) MiB, more than [video] budget_mb = \(settings.budgetMB)"
    }
}
