import Foundation
import KioskConfig
import Logging

/// `[metrics]` in the loop: after each pass a change of the facts makes a write due and a due
/// write is made (its text here, the file on the writer's thread), and the loop wakes for the
/// next one. Also the scene's part of the facts (the item shown, the items, the display mode):
/// the other components add theirs (`KioskComponent.report`).
final class MetricsComponent: KioskComponent {
    let service: MetricsService
    private unowned let context: KioskContext
    /// The item ids of the configuration generation they were taken from (not copied at each pass).
    private var itemIDs: (generation: Int, ids: [String]) = (0, [])

    init(config: KioskConfiguration, context: KioskContext) {
        self.context = context
        service = MetricsService(logger: Logger(label: "kiosk.metrics"))
        service.adopt(config.metrics)
    }

    /// The Prometheus text file's reporter; nil: not configured.
    var reporter: MetricsReporter? { service.reporter }

    func configAdopted(_ config: KioskConfiguration) { service.adopt(config.metrics) }

    func prepare(now: Double) {
        guard let reporter else { return }
        reporter.observe(context.health(), now: now)
        reporter.writeIfDue(now: now)
    }

    var nextDeadline: Double? { reporter?.nextDeadline }

    func stop(now: Double) { service.finish() }

    func report(into h: inout KioskHealth) {
        let session = context.session, behavior = context.behavior, display = context.display
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
        h.configGeneration = behavior.configGeneration
        h.configLoadErrors = behavior.configLoadErrors
        let size = display.fullSize
        h.displayConnected = size.width > 0 && size.height > 0
        h.displayMode = h.displayConnected ? Self.modeText(width: size.width, height: size.height, refreshRate: display.refreshRate) : nil
        h.cardCacheBytes = session.cardCacheBytes
    }

    /// `WIDTHxHEIGHT@HZ` (the rate without decimals when whole, else two).
    static func modeText(width: Int, height: Int, refreshRate: Double) -> String {
        let hz = refreshRate == refreshRate.rounded() ? String(Int(refreshRate)) : String(format: "%.2f", refreshRate)
        return "\(width)x\(height)@\(hz)"
    }
}
