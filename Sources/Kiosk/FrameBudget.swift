import CarouselCore
import KioskConfig
import LinuxSystem
import Raster

/// What one layout costs at one screen size, drawn the way the kiosk draws it: a
/// `CarouselSession` (gestures → engine → layout → card faces → `FrameComposer`) with synchronous
/// cards, timed around `renderFrame`. `bench perf-table` prints one row per layout and size.
public struct FrameBudget {
    /// One measurement.
    public struct Row: Sendable {
        public var type: String
        public var width: Int
        public var height: Int
        /// Time of a whole frame (damage: the whole screen), ms, per thread count measured.
        public var fullMs: [Int: Double] = [:]
        /// Time of a frame of a drag (damage: what moved since the frame before), ms.
        public var dragMs: [Int: Double] = [:]
        /// Mean share of the screen a drag frame redraws (0…1).
        public var dragDamage = 0.0
        /// Bytes of the scene's own frame and background plus the display's buffers.
        public var frameBytes = 0
        /// Bytes the card face cache holds after the drag (faces and their mip levels).
        public var cardBytes = 0
        /// Time to fill / copy one whole frame (the physical floor), ms.
        public var fillMs = 0.0
        public var copyMs = 0.0
    }

    /// Panel sizes the table covers by default.
    public static let defaultSizes = [(800, 480), (1280, 800), (1920, 1080), (3840, 2160)]

    /// `config` with `type` and the card scaled to the panel (its `item_size` is taken as meant for
    /// 1080 rows; kept when `scaleCards` is false), wrapping as the type does by default, no pixel
    /// shift, no attract mode. `custom` gets five keyframes turning and shrinking the side items.
    public static func configuration(_ config: KioskConfiguration, type: CarouselType, width: Int, height: Int,
                                     scaleCards: Bool = true) -> KioskConfiguration {
        var c = config
        let k = scaleCards ? Double(min(width, height)) / 1080 : 1
        c.carousel.type = type
        c.carousel.itemSize = Size2((config.carousel.itemSize.width * k).rounded(), (config.carousel.itemSize.height * k).rounded())
        c.carousel.wrap = nil
        c.carousel.autoscroll = 0
        if type == .custom {
            c.carousel.keyframes = [
                PathKeyframe(offset: -2, translate: (-620 * k, 0, -300 * k), rotate: (0, 50, 0), scale: 0.7, alpha: 0.5),
                PathKeyframe(offset: -1, translate: (-380 * k, 0, -120 * k), rotate: (0, 35, 0), scale: 0.85, alpha: 0.9),
                PathKeyframe(offset: 0),
                PathKeyframe(offset: 1, translate: (380 * k, 0, -120 * k), rotate: (0, -35, 0), scale: 0.85, alpha: 0.9),
                PathKeyframe(offset: 2, translate: (620 * k, 0, -300 * k), rotate: (0, -50, 0), scale: 0.7, alpha: 0.5),
            ]
        }
        if type == .scaling { c.carousel.inset = 200 * k }
        c.display.pixelShift = 0
        c.idle.attractAfter = 0
        return c
    }

    /// How a row's frame times are summarised.
    public enum Statistic: String, CaseIterable, Sendable {
        /// The median frame: the budget on a board that runs nothing else.
        case median
        /// For a machine shared with other work, where the median measures the neighbours too:
        /// whole frames (all alike) by the fastest; the drag (its frames differ) done three
        /// times, each frame by its fastest of the three, then the median frame.
        case min
    }

    /// Measures `config` (already set up by `configuration(…)`) at `width`×`height`: `frames`
    /// whole frames and `frames` drag frames for each thread count in `threads`.
    public static func measure(_ config: KioskConfiguration, width: Int, height: Int, threads: [Int], frames: Int,
                               statistic: Statistic = .median) -> Row {
        let summary: ([Double]) -> Double = statistic == .median ? { $0.median() ?? 0 } : { $0.min() ?? 0 }
        var row = Row(type: config.carousel.type.rawValue, width: width, height: height)
        let session = CarouselSession(config: config, width: width, height: height)
        let compositor = session.scene.composer.compositor
        let items = config.items.count
        let dt = 1.0 / 60
        var now = 0.0
        func settle(at index: Int) {
            session.apply(.scrollTo(index: index, duration: 0), now: now)
            for _ in 0..<4 {
                now += dt
                _ = session.tick(now: now)
                session.renderFrame(full: true, now: now)
            }
        }
        // Every face drawn and cached once, so no timed frame decodes a picture.
        for i in 0..<items { settle(at: i) }
        let home = items / 2
        let vertical = config.carousel.vertical
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        let step = Double(min(width, height)) / 90  // 12 px a frame at 1080 rows: 720 px/s
        for t in threads {
            compositor.threads = t
            settle(at: home)
            var full: [Double] = []
            for _ in 0..<frames {
                now += dt
                let t0 = MonotonicClock.now()
                session.renderFrame(full: true, now: now)
                full.append(MonotonicClock.now() - t0)
            }
            row.fullMs[t] = summary(full) * 1e3
            // A drag: finger down at the centre, then one move a frame. The first frames (the
            // pan slop, the gesture starting) are not counted. The same drag `repeats` times:
            // each frame's time is its fastest, the row's the median frame.
            let skip = 6, repeats = statistic == .min ? 3 : 1
            var drag = [Double](repeating: .infinity, count: frames)
            var damage = 0.0
            for pass in 0..<repeats {
                if pass > 0 { settle(at: home) }
                now += dt
                session.handle(.touchDown(slot: 0, x: cx, y: cy), now: now)
                for k in 1...(frames + skip) {
                    now += dt
                    let d = Double(k) * step
                    session.handle(.touchMotion(slot: 0, x: vertical ? cx : cx - d, y: vertical ? cy - d : cy), now: now)
                    _ = session.tick(now: now)
                    let t0 = MonotonicClock.now()
                    let rects = session.renderFrame(now: now)
                    let elapsed = MonotonicClock.now() - t0
                    guard k > skip else { continue }
                    drag[k - skip - 1] = Swift.min(drag[k - skip - 1], elapsed)
                    if pass == 0 { damage += Double(rects.reduce(0) { $0 + $1.area }) / Double(width * height) }
                }
                now += dt
                session.handle(.touchUp(slot: 0), now: now)
            }
            row.dragMs[t] = (drag.median() ?? 0) * 1e3
            row.dragDamage = damage / Double(frames)
        }
        row.cardBytes = session.cardCacheBytes
        row.frameBytes = (2 + max(1, config.display.buffers)) * width * height * 4
        // The floor: one write and one copy of the frame, what any renderer pays at least.
        let a = Canvas(width: width, height: height), b = Canvas(width: width, height: height)
        var fills: [Double] = [], copies: [Double] = []
        for i in 0..<max(frames, 5) {
            var t0 = MonotonicClock.now()
            a.fill(0xFF10_2030 &+ UInt32(i))
            fills.append(MonotonicClock.now() - t0)
            t0 = MonotonicClock.now()
            b.copy(from: a, x: 0, y: 0, width: width, height: height)
            copies.append(MonotonicClock.now() - t0)
        }
        row.fillMs = summary(fills) * 1e3
        row.copyMs = summary(copies) * 1e3
        return row
    }

    /// The highest of 60, 30, 20, 15, 10 Hz whose interval `ms` fits in, or 0.
    public static func sustainedRate(_ ms: Double) -> Int {
        for hz in [60, 30, 20, 15, 10] where ms <= 1000 / Double(hz) { return hz }
        return 0
    }

}
