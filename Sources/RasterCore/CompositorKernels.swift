import CarouselCore

/// The drawing loops behind `Compositor`: one implementation, compiled once for the baseline
/// instruction set of the target (module `RasterKernels`) and, on x86-64, once more for
/// AVX2 (module `RasterKernelsAVX2`, chosen at run time when the CPU has it).
public protocol CompositorKernels: AnyObject {
    /// The instruction set these loops were compiled for ("baseline", "avx2").
    var instructionSet: String { get }

    /// Draws `quads` (back to front) into `canvas` inside `area` (already clipped to the
    /// canvas), over `backdrop` when given; returns the number of pixels shaded.
    func draw(_ quads: [Quad], into canvas: Canvas, area: PixelRect, backdrop: Backdrop?,
              filter: TextureFilter, threads: Int, occlusionCulling: Bool) -> Int
}
