import CarouselCore
import Display
import Foundation
import KioskConfig
import Raster

/// What `simulate` is asked to do.
public struct SimulationPlan {
    public var config: KioskConfiguration
    public var width: Int
    public var height: Int
    public var script: [TimedInputEvent] = []
    /// Virtual seconds to run.
    public var until: Double = 5
    /// Screenshots: virtual time → PNG path.
    public var shots: [(time: Double, path: String)] = []
    /// Turn the carousel on its own (one item every `demoInterval` seconds), as `make run` does.
    public var demoInterval: Double?
    public init(config: KioskConfiguration, width: Int, height: Int) {
        self.config = config; self.width = width; self.height = height
    }
}

/// Runs the whole program (gestures, engine, scene, compositor, headless display) on a virtual
/// clock stepping at the engine's tick rate. Deterministic: the same plan always writes the
/// same bytes.
public final class Simulator {
    public let plan: SimulationPlan
    public let session: CarouselSession
    private let display: HeadlessDisplay
    private let log: EventLog

    public init(plan: SimulationPlan, log: EventLog) {
        self.plan = plan
        self.log = log
        session = CarouselSession(config: plan.config, width: plan.width, height: plan.height)
        display = HeadlessDisplay(width: plan.width, height: plan.height)
    }

    /// Runs to `plan.until`, writing shots and events. Returns the PNG paths written.
    @discardableResult
    public func run() throws -> [String] {
        let dt = 1 / max(1, plan.config.carousel.tickHz)
        var pending = plan.script[...]
        var shots = plan.shots.sorted { $0.time < $1.time }[...]
        var written: [String] = []
        var nextDemo = plan.demoInterval
        var step = 0
        while true {
            let now = Double(step) * dt
            if now > plan.until + 1e-9 { break }
            while let e = pending.first, e.time <= now + 1e-9 {
                pending = pending.dropFirst()
                session.handle(e.event, now: now)
            }
            if let d = nextDemo, now >= d - 1e-9 {
                session.apply(.scrollBy(items: 1, duration: nil), now: now)
                nextDemo = d + (plan.demoInterval ?? 1)
            }
            for e in session.tick(now: now) { log.write(e, items: session.config.items) }
            while let s = shots.first, s.time <= now + 1e-9 {
                shots = shots.dropFirst()
                try display.present(session.scene.frame, damage: session.renderFrame())
                try display.writePNG(to: s.path)
                written.append(s.path)
            }
            step += 1
        }
        return written
    }
}
