/// Scratch for the general (affine and projective) loop, which works on a run in chunks of
/// `GatherScratch.chunk` pixels and three passes: texel indices and weights for the whole chunk,
/// then every pixel's two texel pairs fetched with plain 64-bit loads, then the filtering and
/// blending on contiguous data. Preallocated once per band worker (never shared between
/// threads).
final class GatherScratch {
    /// Pixels per chunk (a multiple of 8): large enough that the fetched pairs have left the
    /// store buffer before the third pass reads them, small enough to stay in L1.
    static let chunk = 128

    let buffers: GatherBuffers

    init() {
        let blocks = GatherScratch.chunk / 8
        buffers = GatherBuffers(
            index: .allocate(capacity: GatherScratch.chunk),
            weightX: .allocate(capacity: blocks), weightBottom: .allocate(capacity: blocks),
            top: .allocate(capacity: GatherScratch.chunk), bottom: .allocate(capacity: GatherScratch.chunk))
        buffers.index.initialize(repeating: 0, count: GatherScratch.chunk)
        buffers.top.initialize(repeating: 0, count: GatherScratch.chunk)
        buffers.bottom.initialize(repeating: 0, count: GatherScratch.chunk)
        buffers.weightX.initialize(repeating: U16x16(), count: blocks)
        buffers.weightBottom.initialize(repeating: U16x16(), count: blocks)
    }

    deinit {
        buffers.index.deallocate(); buffers.weightX.deallocate(); buffers.weightBottom.deallocate()
        buffers.top.deallocate(); buffers.bottom.deallocate()
    }
}

/// The pointers of a `GatherScratch` (trivially copyable, carried in `QuadSampler`).
struct GatherBuffers {
    /// Per pixel: the index of its upper-left texel.
    var index: UnsafeMutablePointer<Int32>
    /// Per block of 8 pixels: the horizontal weight (0…256) and the vertical weight of the
    /// lower texel row (0…65535; the upper row's is the rest), as `U16x16` channel-pair lanes.
    var weightX: UnsafeMutablePointer<U16x16>, weightBottom: UnsafeMutablePointer<U16x16>
    /// Per pixel: the upper texel pair (left texel in the low half) and the lower one.
    var top: UnsafeMutablePointer<UInt64>, bottom: UnsafeMutablePointer<UInt64>
}
