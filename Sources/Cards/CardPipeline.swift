import Foundation
import KioskConfig
import LinuxSystem
import Logging
import Raster

/// Item faces for the main loop, drawn off it. The loop says each frame which items are
/// visible and where the focus is (`request`); worker threads draw the missing faces nearest
/// the focus first and hand them back through an eventfd (`eventFD`, then `drainCompleted`);
/// `face(at:now:)` gives what to draw — the loading face until the real one is ready, then a
/// short fade. Textures (with mip levels) live in a byte-bounded cache that drops the items
/// farthest from the focus first. `update(items:)` and `invalidate(paths:)` re-render only what
/// changed. In synchronous mode (for `simulate`) every visible face is drawn inside `request`
/// on the calling thread, with no fade: the same input always gives the same frames.
///
/// All methods are for one thread (the main loop); only the workers run elsewhere.
public final class CardPipeline {
    public struct Options: Equatable {
        /// Worker threads (ignored when synchronous).
        public var workers = 2
        /// The cache bound in bytes (`[cards] cache_mb`).
        public var cacheBytes = 64 << 20
        /// Seconds a finished face takes to fade in over the loading face.
        public var fadeDuration = 0.2
        /// Items beyond the visible ones drawn ahead, each side.
        public var prefetch = 2
        /// Does the carousel wrap (distances from the focus go around)?
        public var wraps = false
        /// Draw every visible face inside `request` (deterministic; for `simulate`).
        public var synchronous = false
        public var limits = ImageLimits()

        public init() {}

        /// From `[cards]`: workers, cache_mb, max_image_megapixels, fade_duration.
        public init(settings: CardSettings, wraps: Bool = false, synchronous: Bool = false) {
            workers = max(1, settings.workers)
            cacheBytes = max(1, settings.cacheMB) << 20
            fadeDuration = max(0, settings.fadeDuration)
            if settings.maxImageMegapixels > 0 {
                limits.maxPixels = Int(min(1e12, settings.maxImageMegapixels * 1_000_000))
            }
            self.wraps = wraps
            self.synchronous = synchronous
        }
    }

    public let options: Options
    public private(set) var items: [ItemConfig]
    public private(set) var cardWidth: Int
    public private(set) var cardHeight: Int
    let renderer: CardFaceRenderer
    private let logger: Logger
    private var cache: CardCache
    private let queue = RenderQueue()
    /// Finished faces wake the loop through it. A process that cannot make one eventfd (out of
    /// descriptors at start) cannot run a kiosk: stop with the reason.
    private let signal: EventFD = {
        do { return try EventFD() } catch { preconditionFailure("\(error)") }
    }()
    private var threads: [Thread] = []
    private var versions: [Int]
    private var nextVersion = 1
    private var fades: [Int: (start: Double, from: Texture?)] = [:]
    private var visible: Set<Int> = []
    private var focus = 0.0
    /// Items the cache refused (too far for the room left), with the focus they were refused at.
    private var refused: [Int: Int] = [:]
    private var reported: Set<CardFailure> = []
    /// Card failures logged since the start (once per file and reason).
    public private(set) var failuresReported = 0
    private var loadingFaces: [(style: CardStyle, texture: Texture)] = []
    private var placeholderFaces: [(style: CardStyle, texture: Texture)] = []

    public init(items: [ItemConfig], cardWidth: Int, cardHeight: Int, options: Options = Options(),
                logger: Logger = Logger(label: "kiosk.cards")) {
        self.options = options
        self.items = items
        self.cardWidth = max(1, cardWidth)
        self.cardHeight = max(1, cardHeight)
        self.logger = logger
        renderer = CardFaceRenderer(limits: options.limits)
        cache = CardCache(capacity: options.cacheBytes)
        versions = []
        versions = items.map { _ in bumpVersion() }
        if !options.synchronous { startWorkers(options.workers) }
    }

    deinit { queue.close() }

    // MARK: For the main loop

    /// Readable when finished faces are waiting: add it to the loop's epoll, then call
    /// `drainCompleted(now:)`.
    public var eventFD: Int32 { signal.fd }

    /// Tells the pipeline what is on screen: the visible item indices and the focus (scroll
    /// offset in items). Missing faces are queued nearest-first (plus `prefetch` neighbours);
    /// queued faces no longer wanted are dropped. Synchronous mode draws them here.
    public func request(visible indices: [Int], focus: Double) {
        self.focus = focus
        visible = Set(indices.filter { items.indices.contains($0) })
        var wanted = visible
        if options.prefetch > 0 && !options.synchronous {
            for v in visible { for k in 1...options.prefetch { for n in [v - k, v + k] { if let i = wrap(n) { wanted.insert(i) } } } }
        }
        let focusSlot = Int(focus.rounded())
        var jobs: [(job: RenderJob, distance: Double)] = []
        for index in wanted.sorted(by: { distance($0) < distance($1) }) {
            if let e = cache.use(index), e.version == versions[index] { continue }
            if refused[index] == focusSlot { continue }
            jobs.append((RenderJob(index: index, version: versions[index], item: items[index],
                                   width: cardWidth, height: cardHeight), distance(index)))
        }
        if options.synchronous {
            for (job, _) in jobs {
                let r = renderer.renderFace(job.item, width: job.width, height: job.height)
                r.texture.buildMipLevels()
                install(RenderResult(job: job, texture: r.texture, failure: r.failure), now: nil)
            }
        } else {
            queue.submit(jobs)
        }
    }

    /// Takes the faces finished since the last call into the cache (their fade starts at
    /// `now`) and returns the indices whose look changed. Logs each bad item once.
    @discardableResult
    public func drainCompleted(now: Double) -> [Int] {
        signal.reset()
        var changed: [Int] = []
        for r in queue.takeResults() {
            let i = r.job.index
            guard items.indices.contains(i), versions[i] == r.job.version,
                  r.job.width == cardWidth, r.job.height == cardHeight else { continue }
            if install(r, now: now) { changed.append(i) }
        }
        return changed
    }

    /// What to draw for item `index` at time `now`.
    public func face(at index: Int, now: Double) -> CardFace {
        guard items.indices.contains(index) else {
            return CardFace(texture: loadingFace(for: CardStyle()), isReady: false)
        }
        guard let entry = cache.use(index) else {
            return CardFace(texture: loadingFace(for: items[index].style), isReady: false)
        }
        if let fade = fades[index] {
            let p = options.fadeDuration > 0 ? (now - fade.start) / options.fadeDuration : 1
            if p < 1 {
                let eased = max(0, p) * max(0, p) * (3 - 2 * max(0, p))
                return CardFace(texture: entry.texture, opacity: eased,
                                underlay: fade.from ?? loadingFace(for: items[index].style))
            }
            fades[index] = nil
        }
        return CardFace(texture: entry.texture)
    }

    /// True while some face is fading in at `now` (the loop keeps drawing frames until false).
    public func isAnimating(now: Double) -> Bool {
        fades.values.contains { now - $0.start < options.fadeDuration }
    }

    /// The face of an iCarousel placeholder slot in this style.
    public func placeholderFace(style: CardStyle) -> Texture {
        if let f = placeholderFaces.first(where: { $0.style == style }) { return f.texture }
        let t = renderer.placeholderFace(style: style, width: cardWidth, height: cardHeight)
        t.buildMipLevels()
        placeholderFaces.append((style, t))
        return t
    }

    // MARK: Changes

    /// Replaces the item list (config reload, folder change). Items whose face-relevant fields
    /// (title, subtitle, image, video, poster, style) are unchanged keep their faces, even if they moved;
    /// changed ones keep showing the old face until the new one fades in. Returns the indices
    /// whose face will change.
    @discardableResult
    public func update(items newItems: [ItemConfig]) -> [Int] {
        var oldIndex: [String: Int] = [:]
        for (i, item) in items.enumerated() where oldIndex[item.id] == nil { oldIndex[item.id] = i }
        var map: [Int: Int] = [:]
        var newVersions: [Int] = []
        var changed: [Int] = []
        var newFades: [Int: (start: Double, from: Texture?)] = [:]
        for (i, item) in newItems.enumerated() {
            if let j = oldIndex.removeValue(forKey: item.id) {
                map[j] = i
                if let f = fades[j] { newFades[i] = f }
                if CardPipeline.sameFace(items[j], item) {
                    newVersions.append(versions[j])
                } else {
                    newVersions.append(bumpVersion())
                    changed.append(i)
                }
            } else {
                newVersions.append(bumpVersion())
                changed.append(i)
            }
        }
        items = newItems
        versions = newVersions
        cache.remap(map)
        fades = newFades
        refused.removeAll()
        visible = Set(visible.compactMap { map[$0] })
        return changed
    }

    /// Marks the items showing any of `paths` for re-rendering (their files changed on disk);
    /// the old face stays until the new one is ready. Returns the affected indices.
    @discardableResult
    public func invalidate(paths: [String]) -> [Int] {
        let changed = Set(paths.map { PathResolver.standardized($0) })
        var affected: [Int] = []
        for (i, item) in items.enumerated() {
            guard item.mediaFiles.contains(where: { changed.contains(PathResolver.standardized($0)) }) else { continue }
            versions[i] = bumpVersion()
            refused[i] = nil
            affected.append(i)
        }
        reported = reported.filter { !changed.contains(PathResolver.standardized($0.file)) }
        return affected
    }

    /// Draws every face again at a new card size.
    public func setCardSize(width: Int, height: Int) {
        guard width != cardWidth || height != cardHeight else { return }
        cardWidth = max(1, width)
        cardHeight = max(1, height)
        versions = versions.map { _ in bumpVersion() }
        cache.removeAll()
        fades.removeAll()
        refused.removeAll()
        loadingFaces.removeAll()
        placeholderFaces.removeAll()
    }

    // MARK: Figures

    /// Bytes the cache holds now, the most it ever held, and its bound.
    public var cacheBytes: Int { cache.bytes }
    public var peakCacheBytes: Int { cache.peakBytes }
    public var cachedCount: Int { cache.count }
    /// Faces waiting for or being drawn by a worker.
    public var outstandingJobs: Int { queue.outstanding }
    /// Faces the workers drew since the start (each item once, unless its look, its size or the
    /// cache's room changed).
    public var facesDrawn: Int { queue.finishedCount }
    /// Is item `index`'s current face in the cache?
    public func isReady(_ index: Int) -> Bool {
        guard items.indices.contains(index), let e = cache.peek(index) else { return false }
        return e.version == versions[index]
    }

    // MARK: Inside

    private func startWorkers(_ count: Int) {
        for n in 0..<max(1, count) {
            let queue = self.queue, signal = self.signal, renderer = self.renderer, logger = self.logger
            let t = Thread {
                CurrentThread.setName("card-worker-\(n)")
                // Faces are background work: the loop that draws frames and reads input goes
                // first when both want a CPU (the first frame at start-up, under a drag while
                // faces load; docs/start-up.md). A face waits; a frame or a touch must not.
                do {
                    try CurrentThread.lowerPriority(by: CurrentThread.backgroundPriority)
                } catch {
                    logger.warning("card-worker-\(n): \(error): drawing faces at the loop's own priority")
                }
                while let job = queue.next() {
                    let r = renderer.renderFace(job.item, width: job.width, height: job.height)
                    r.texture.buildMipLevels()
                    queue.finish(RenderResult(job: job, texture: r.texture, failure: r.failure))
                    signal.signal()
                }
            }
            t.name = "card-worker-\(n)"
            t.stackSize = 8 << 20
            t.start()
            threads.append(t)
        }
    }

    /// Puts a finished face in the cache (logging a failure once); false when refused.
    @discardableResult
    private func install(_ r: RenderResult, now: Double?) -> Bool {
        let i = r.job.index
        if let f = r.failure, reported.insert(f).inserted {
            failuresReported += 1
            if f.missing {
                logger.warning("card \(i) '\(items[i].id)': \(f.file) is not on disk (\(f.reason)); showing its title until it is back")
            } else {
                logger.warning("card \(i) '\(items[i].id)': cannot show \(f.file): \(f.reason)")
            }
        }
        let previous = cache.peek(i)?.texture
        guard cache.insert(i, texture: r.texture, version: r.job.version, failed: r.failure != nil,
                           distance: { self.distance($0) }) != nil else {
            refused[i] = Int(focus.rounded())
            return false
        }
        for gone in Array(fades.keys) where cache.peek(gone) == nil { fades[gone] = nil }
        if let now, options.fadeDuration > 0, visible.contains(i) {
            fades[i] = (now, previous)
        } else {
            fades[i] = nil
        }
        return true
    }

    private func loadingFace(for style: CardStyle) -> Texture {
        if let f = loadingFaces.first(where: { $0.style == style }) { return f.texture }
        let t = renderer.loadingFace(style: style, width: cardWidth, height: cardHeight)
        t.buildMipLevels()
        loadingFaces.append((style, t))
        return t
    }

    /// Items between `index` and the focus (around the ring when the carousel wraps).
    func distance(_ index: Int) -> Double {
        let d = abs(Double(index) - focus)
        guard options.wraps, !items.isEmpty else { return d }
        let n = Double(items.count)
        let m = d.truncatingRemainder(dividingBy: n)
        return min(m, n - m)
    }

    private func wrap(_ i: Int) -> Int? {
        let n = items.count
        guard n > 0 else { return nil }
        if options.wraps { return ((i % n) + n) % n }
        return (0..<n).contains(i) ? i : nil
    }

    private func bumpVersion() -> Int {
        nextVersion += 1
        return nextVersion
    }

    /// Do two items look the same on a card?
    static func sameFace(_ a: ItemConfig, _ b: ItemConfig) -> Bool {
        a.title == b.title && a.subtitle == b.subtitle && a.image == b.image && a.style == b.style
            && a.video == b.video && a.poster == b.poster
    }
}
