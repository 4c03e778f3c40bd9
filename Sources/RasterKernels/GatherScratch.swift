/// Scratch for the general (affine and projective) loop, which works on a run in chunks of
/// `GatherScratch.chunk` pixels and two passes: texel indices and weights for the whole chunk,
/// then every pixel's two texel pairs fetched with plain 64-bit loads, filtered and blended.
/// Preallocated once per band worker (never shared between threads).
final class GatherScratch {
    /// Pixels per chunk (a multiple of 8): large enough that the first pass's stores have left
    /// the store buffer before the second pass reads them, small enough to stay in L1 (2 KB).
    /// 256 measured 1–3 % faster than 128 and 1.5 % faster than 512 or 1,024.
    static let chunk = 256

    let buffers: GatherBuffers

    init() {
        buffers = GatherBuffers(
            index: .allocate(capacity: GatherScratch.chunk),
            weights: .allocate(capacity: GatherScratch.chunk))
        buffers.index.initialize(repeating: 0, count: GatherScratch.chunk)
        buffers.weights.initialize(repeating: 0, count: GatherScratch.chunk)
    }

    deinit {
        buffers.index.deallocate(); buffers.weights.deallocate()
    }
}

/// The pointers of a `GatherScratch` (trivially copyable, carried in `QuadSampler`).
struct GatherBuffers {
    /// Per pixel, in the order 0 1 4 5 2 3 6 7 within each block: the index of its upper-left
    /// texel.
    var index: UnsafeMutablePointer<Int32>
    /// Per pixel, in pixel order: the right texels' weight as `horizontalWeight` gives it in the
    /// low 16 bits, the lower texel row's (0…32767, `verticalWeight`) in the high 16 (pass 2
    /// spreads them to its layout with one byte shuffle each).
    var weights: UnsafeMutablePointer<UInt32>
}
