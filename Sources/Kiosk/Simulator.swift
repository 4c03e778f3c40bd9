import CarouselCore
import Cards
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
/// clock. Deterministic: the same plan always writes the same bytes.
public final class Simulator {
    public let plan: SimulationPlan
    public let engine: CarouselEngine
    private let gestures: GestureRecognizer
    private let scene: SceneRenderer
    private let display: HeadlessDisplay
    private let cards: [Texture]
    private let log: EventLog

    public init(plan: SimulationPlan, log: EventLog) {
        self.plan = plan
        self.log = log
        let c = plan.config
        engine = CarouselEngine(options: c.carousel, itemCount: c.items.count)
        gestures = GestureRecognizer(options: c.gestures, vertical: c.carousel.vertical)
        scene = SceneRenderer(width: plan.width, height: plan.height, theme: c.theme)
        display = HeadlessDisplay(width: plan.width, height: plan.height)
        let renderer = PlainCardRenderer()
        let w = Int(c.carousel.itemSize.width), h = Int(c.carousel.itemSize.height)
        cards = c.items.map { renderer.render($0, width: w, height: h) }
        cards.forEach { $0.buildMipLevels() }
    }

    /// Runs to `plan.until`, writing shots and events. Returns the paths written.
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
                for intent in gestures.handle(e.event, now: now) { engine.apply(intent, now: now) }
            }
            if let d = nextDemo, now >= d - 1e-9 {
                engine.apply(.scrollBy(items: 1, duration: nil), now: now)
                nextDemo = d + (plan.demoInterval ?? 1)
            }
            engine.tick(now: now)
            for e in engine.takeEvents() { log.write(e, items: plan.config.items) }
            while let s = shots.first, s.time <= now + 1e-9 {
                shots = shots.dropFirst()
                try shoot(to: s.path)
                written.append(s.path)
            }
            step += 1
        }
        return written
    }

    private func shoot(to path: String) throws {
        let quads = engine.layout(viewSize: Size2(Double(plan.width), Double(plan.height))).compactMap { pose -> Quad? in
            guard cards.indices.contains(pose.index) else { return nil }
            return Quad(texture: cards[pose.index], corners: pose.corners, alpha: pose.alpha)
        }
        let damage = scene.render(quads)
        try display.present(scene.frame, damage: damage)
        try display.writePNG(to: path)
    }
}
