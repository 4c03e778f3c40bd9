import Foundation

/// `[metrics]` and the facts of `state`: what a fleet watches (docs/control.md).
extension KioskApp {
    /// The facts now; the resident memory is read by whoever writes them.
    func gatherHealth() -> KioskHealth {
        var h = KioskHealth()
        h.framesPresented = framesPresented
        h.lastFrameTime = lastFrameWallTime
        h.lastInputTime = lastInputWallTime
        let items = session.config.items
        let index = session.position.index
        h.currentIndex = index
        h.currentID = items.indices.contains(index) ? items[index].id : nil
        if itemIDs.generation != behavior.configGeneration {
            // Every item of the file, also those a schedule window hides now.
            itemIDs = (behavior.configGeneration, behavior.loadedConfig.items.map(\.id))
        }
        h.itemIDs = itemIDs.ids
        h.selections = behavior.selections
        h.errors = ["action": behavior.actionFailures, "card": session.cardFailures,
                    "config_reload": behavior.configLoadErrors, "display": displayErrors,
                    "video": behavior.videoFailures]
        h.configGeneration = behavior.configGeneration
        h.configLoadErrors = behavior.configLoadErrors
        let size = display.fullSize
        h.displayConnected = size.width > 0 && size.height > 0
        h.displayMode = h.displayConnected ? Self.modeText(width: size.width, height: size.height, refreshRate: display.refreshRate) : nil
        h.blanked = behavior.blanked
        h.inputDevices = inputs.reduce(0) { $0 + $1.deviceCount }
        h.cardCacheBytes = session.cardCacheBytes
        h.startTime = startWallTime
        return h
    }

    /// `WIDTHxHEIGHT@HZ` (the rate without decimals when whole, else two).
    static func modeText(width: Int, height: Int, refreshRate: Double) -> String {
        let hz = refreshRate == refreshRate.rounded() ? String(Int(refreshRate)) : String(format: "%.2f", refreshRate)
        return "\(width)x\(height)@\(hz)"
    }

    /// For `state`: the facts with the resident memory of now.
    public var health: KioskHealth? {
        var h = gatherHealth()
        h.residentBytes = KioskHealth.readResidentBytes()
        return h
    }

    /// `[metrics]`: the Prometheus text file's reporter (`ConfiguredServices`); nil: not configured.
    var metrics: MetricsReporter? { services.metrics.reporter }

    /// After each loop pass: a change makes a write due; a due write is made (its text here, the
    /// file on the writer's thread). Nothing to do without `[metrics] file`.
    func updateMetrics() {
        guard let metrics else { return }
        let t = now
        metrics.observe(gatherHealth(), now: t)
        metrics.writeIfDue(now: t)
    }
}

/// Unix time in seconds (the wall clock: what a fleet compares with its own `time()`).
func wallClock() -> Double { Date().timeIntervalSince1970 }
