import CarouselCore
import Dispatch
import CRasterSupport
#if canImport(Glibc)
import Glibc
#endif

/// Texture sampling for minified quads.
public enum TextureFilter: String, Sendable, CaseIterable {
    /// Bilinear from the full-size texture only.
    case bilinear
    /// Bilinear from the mip level that matches the on-screen footprint (when the texture has
    /// mip levels; see `Texture.buildMipLevels()`).
    case mipmap
}

/// Draws textured quads back to front into a canvas: perspective-correct bilinear sampling
/// (fast paths for affine, axis-aligned and 1:1 quads), mip levels for minified cards,
/// coverage anti-aliased edges, per-quad alpha, premultiplied source-over onto an opaque
/// frame, and occlusion culling of pixels hidden behind opaque cards.
///
/// The frame may be split into horizontal bands drawn on `threads` threads. A compositor
/// holds scratch memory reused from frame to frame; use one per thread that draws.
public final class Compositor {
    public var filter: TextureFilter
    /// Horizontal bands drawn in parallel (1 = on the calling thread only).
    public var threads: Int
    /// Skip pixels hidden behind opaque quads drawn later (nearer the viewer).
    public var occlusionCulling = true
    /// Pixels shaded (sampled and blended) by the last `draw` call, over all bands.
    public private(set) var shadedPixels = 0

    private var bands: [BandWorker] = []

    /// - Parameters:
    ///   - filter: `.mipmap` samples mip levels where cards are minified; `.bilinear` never does.
    ///   - threads: horizontal bands drawn in parallel (values below 1 mean 1).
    public init(filter: TextureFilter = .mipmap, threads: Int = 1) {
        self.filter = filter
        self.threads = max(1, threads)
    }

    /// The number of cores, at most 4: the default for `[display] render_threads`.
    public static var defaultThreadCount: Int {
        #if canImport(Glibc)
        return max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #else
        return 1
        #endif
    }

    /// Draws `quads` (back to front) into `canvas`, touching only pixels inside `clip`.
    /// The canvas is treated as opaque (XRGB8888): its X byte is written as 0xFF.
    public func draw(_ quads: [Quad], into canvas: Canvas, clip: PixelRect? = nil) {
        shadedPixels = 0
        let area = (clip ?? canvas.bounds).intersection(canvas.bounds)
        guard !area.isEmpty else { return }
        let prepared = quads.compactMap { PreparedQuad($0, clip: area, filter: filter) }
        guard !prepared.isEmpty else { return }
        let rows = prepared.reduce(prepared[0].rows) {
            min($0.lowerBound, $1.rows.lowerBound)..<max($0.upperBound, $1.rows.upperBound)
        }
        let bandCount = max(1, min(threads, rows.count / 16))
        while bands.count < bandCount { bands.append(BandWorker()) }
        let pixels = canvas.pixels, stride = canvas.stride, cull = occlusionCulling
        // The quads' textures stay alive: `quads` is held by the caller for this whole call.
        withExtendedLifetime(quads) {
            if bandCount == 1 {
                bands[0].draw(prepared, rows: rows, pixels: pixels, stride: stride, occlusion: cull)
            } else {
                let workers = bands
                DispatchQueue.concurrentPerform(iterations: bandCount) { b in
                    let lo = rows.lowerBound + rows.count * b / bandCount
                    let hi = rows.lowerBound + rows.count * (b + 1) / bandCount
                    workers[b].draw(prepared, rows: lo..<hi, pixels: pixels, stride: stride, occlusion: cull)
                }
            }
        }
        shadedPixels = bands.prefix(bandCount).reduce(0) { $0 + $1.shadedPixels }
    }
}

/// A run of one row of one quad left visible by the occlusion pass.
struct SpanRecord {
    var y: Int32, lo: Int32, hi: Int32, innerLo: Int32, innerHi: Int32
}

/// One band's scratch and its two passes: front to back to find what is visible, then back
/// to front to shade it.
final class BandWorker {
    private let occlusion = RowOcclusion()
    private let columnTable = ColumnTable()
    private let rowCache = RowFilterCache()
    private var spans: [SpanRecord] = []
    private var ranges: [Range<Int>] = []
    private(set) var shadedPixels = 0

    func draw(_ quads: [PreparedQuad], rows: Range<Int>, pixels: UnsafeMutablePointer<UInt32>, stride: Int,
              occlusion useOcclusion: Bool) {
        spans.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        ranges.reserveCapacity(quads.count)
        occlusion.reset(rows: rows.count)
        for _ in quads { ranges.append(0..<0) }
        let occ = occlusion
        for qi in quads.indices.reversed() {
            let q = quads[qi]
            let start = spans.count
            // A quad outside this band has an empty overlap (lower bound past the upper one).
            let top = max(q.rows.lowerBound, rows.lowerBound)
            let ys = top..<max(top, min(q.rows.upperBound, rows.upperBound))
            for y in ys {
                guard let sp = q.span(row: y) else { continue }
                let r = y - rows.lowerBound
                occ.forEachVisible(row: r, sp.lo, sp.hi) { a, b in
                    spans.append(SpanRecord(y: Int32(y), lo: Int32(a), hi: Int32(b),
                                            innerLo: Int32(sp.innerLo), innerHi: Int32(sp.innerHi)))
                }
                if useOcclusion, let hidden = q.occludedColumns(row: y, inner: sp.innerLo..<sp.innerHi) {
                    occ.cover(row: r, hidden.lowerBound, hidden.upperBound)
                }
            }
            ranges[qi] = start..<spans.count
        }
        var shaded = 0
        spans.withUnsafeBufferPointer { all in
            for qi in quads.indices where !ranges[qi].isEmpty {
                var s = quads[qi].sampler
                if s.kind == .axisAligned {
                    var lo = Int.max, hi = Int.min
                    for i in ranges[qi] { lo = min(lo, Int(all[i].lo)); hi = max(hi, Int(all[i].hi)) }
                    columnTable.fill(&s, columns: lo..<hi)
                    rowCache.reset()
                }
                for i in ranges[qi] {
                    let sp = all[i]
                    let y = Int(sp.y), lo = Int(sp.lo), hi = Int(sp.hi)
                    let inLo = min(hi, max(lo, Int(sp.innerLo))), inHi = max(inLo, min(hi, Int(sp.innerHi)))
                    let row = pixels + y * stride
                    shaded += hi - lo
                    if inLo > lo { SpanShader.shade(s, row: row, y: y, x0: lo, x1: inLo, coverage: true) }
                    if inHi > inLo { shadeInterior(s, row: row, y: y, x0: inLo, x1: inHi, quad: quads[qi]) }
                    if hi > inHi { SpanShader.shade(s, row: row, y: y, x0: inHi, x1: hi, coverage: true) }
                }
            }
        }
        shadedPixels = shaded
    }

    /// Fully covered pixels: opaque 1:1 rows are copied; the rest is shaded without coverage.
    @inline(__always)
    private func shadeInterior(_ s: QuadSampler, row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                               quad: PreparedQuad) {
        if s.kind == .blit && s.alpha >= 1 {
            let ty = y + s.blitOffsetY, tx = x0 + s.blitOffsetX
            for region in quad.opaqueRegions where region.contains(row: ty, tx..<(tx + x1 - x0)) {
                raster_copy32(row + x0, s.texels + ty * s.stride + tx, x1 - x0)
                return
            }
        }
        if s.kind == .axisAligned && x1 - x0 >= RowFilterCache.minimumRun {
            SpanShader.separable(s, row, y, x0, x1, cache: rowCache)
            return
        }
        SpanShader.shade(s, row: row, y: y, x0: x0, x1: x1, coverage: false)
    }
}
