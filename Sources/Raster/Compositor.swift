import CarouselCore
import RasterCore
#if canImport(Glibc)
import Glibc
#endif

/// Draws textured quads back to front into a canvas: perspective-correct bilinear sampling
/// (fast paths for affine, axis-aligned and 1:1 quads), mip levels for minified cards,
/// coverage anti-aliased edges, per-quad alpha, premultiplied source-over onto an opaque
/// frame, and occlusion culling of pixels hidden behind opaque cards.
///
/// The frame may be split into horizontal bands drawn on `threads` threads. The loops come in
/// one build per `InstructionSet`; the best the CPU has is used unless one is asked for. A
/// compositor holds scratch memory reused from frame to frame; use one per thread that draws.
public final class Compositor {
    public var filter: TextureFilter
    /// Horizontal bands drawn in parallel (1 = on the calling thread only).
    public var threads: Int
    /// Skip pixels hidden behind opaque quads drawn later (nearer the viewer).
    public var occlusionCulling = true
    /// Pixels shaded (sampled and blended) by the last `draw` call, over all bands.
    public private(set) var shadedPixels = 0

    /// The instruction set the loops in use were built for (`.baseline` when the one asked for
    /// is not available).
    public let instructionSet: InstructionSet

    private let kernels: CompositorKernels

    /// - Parameters:
    ///   - filter: `.mipmap` samples mip levels where cards are minified; `.bilinear` never does.
    ///   - threads: horizontal bands drawn in parallel (values below 1 mean 1).
    ///   - instructionSet: whose loops to use; falls back to `.baseline` when not available.
    public init(filter: TextureFilter = .mipmap, threads: Int = 1, instructionSet: InstructionSet = .best) {
        self.filter = filter
        self.threads = max(1, threads)
        self.instructionSet = instructionSet.isAvailable ? instructionSet : .baseline
        kernels = self.instructionSet.makeKernels()
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
    ///
    /// With a `backdrop`, every pixel of the clip is written: the result is that of filling the
    /// clip with the backdrop first and drawing over it, without the extra pass (see `Backdrop`).
    /// Without one, the quads are drawn over what the canvas holds.
    public func draw(_ quads: [Quad], into canvas: Canvas, clip: PixelRect? = nil, backdrop: Backdrop? = nil) {
        shadedPixels = 0
        let area = (clip ?? canvas.bounds).intersection(canvas.bounds)
        guard !area.isEmpty else { return }
        var backdrop = backdrop
        if let b = backdrop, !b.fits(canvas) {
            // An image (or a list of rows) smaller than the canvas: what it has is copied, the
            // rest drawn over.
            switch b {
            case .image(let image): canvas.copy(from: image, x: area.x, y: area.y, width: area.width, height: area.height)
            case .rows(let colors):
                for y in area.y..<min(area.y + area.height, colors.count) {
                    canvas.fill(colors[y] | 0xFF00_0000, x: area.x, y: y, width: area.width, height: 1)
                }
            case .color: break
            }
            backdrop = nil
        }
        shadedPixels = kernels.draw(quads, into: canvas, area: area, backdrop: backdrop, filter: filter,
                                    threads: threads, occlusionCulling: occlusionCulling)
    }
}
