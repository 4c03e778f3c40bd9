import CarouselCore
import Dispatch
import RasterCore

/// `CompositorKernels` built from this module's loops. The same source is compiled three times
/// on x86-64 (`Sources/RasterKernelsAVX2` and `Sources/RasterKernelsV2` hold links to these
/// files) and twice on AArch64 (`Sources/RasterKernelsNEON`), so each module has its own
/// `DrawKernels` for its instruction set.
public final class DrawKernels: CompositorKernels {
    private var bands: [BandWorker] = []

    public init() {}

    public var instructionSet: String {
        #if RASTER_KERNELS_AVX2
        return "avx2"
        #elseif RASTER_KERNELS_V2
        return "x86-64-v2"
        #elseif RASTER_KERNELS_NEON
        return "neon"
        #else
        return "baseline"
        #endif
    }

    public func draw(_ quads: [Quad], into canvas: Canvas, area: PixelRect, backdrop: Backdrop?,
                     filter: TextureFilter, threads: Int, occlusionCulling cull: Bool) -> Int {
        let prepared = quads.compactMap { PreparedQuad($0, clip: area, filter: filter) }
        var rows = area.y..<area.maxY
        if backdrop == nil {
            guard !prepared.isEmpty else { return 0 }
            rows = prepared.reduce(prepared[0].rows) {
                min($0.lowerBound, $1.rows.lowerBound)..<max($0.upperBound, $1.rows.upperBound)
            }
        }
        let bandCount = max(1, min(threads, rows.count / 16))
        while bands.count < bandCount { bands.append(BandWorker()) }
        let pixels = canvas.pixels, stride = canvas.stride
        let columns = area.x..<area.maxX
        // The quads' textures stay alive: `quads` is held by the caller for this whole call.
        withExtendedLifetime(quads) {
            if bandCount == 1 {
                bands[0].draw(prepared, rows: rows, columns: columns, pixels: pixels, stride: stride,
                              occlusion: cull, backdrop: backdrop)
            } else {
                let workers = bands
                DispatchQueue.concurrentPerform(iterations: bandCount) { b in
                    let lo = rows.lowerBound + rows.count * b / bandCount
                    let hi = rows.lowerBound + rows.count * (b + 1) / bandCount
                    workers[b].draw(prepared, rows: lo..<hi, columns: columns, pixels: pixels, stride: stride,
                                    occlusion: cull, backdrop: backdrop)
                }
            }
        }
        return bands.prefix(bandCount).reduce(0) { $0 + $1.shadedPixels }
    }
}
