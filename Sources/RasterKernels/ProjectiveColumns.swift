import CRasterSupport

/// For a projective quad whose left and right edges are vertical on screen (a card turned
/// about the vertical axis: every side card of a cover flow, a cylinder or a ring), the
/// texture column u and the depth w do not change down a screen column. The general loop's
/// first pass would divide by w and convert u for every pixel of every row; with this table
/// it does that once per screen column per quad, and per pixel computes only v.
///
/// Per column, counted from the quad's first column (`QuadSampler.originX`): 1/w, and u's
/// left texel and horizontal weight (`horizontalWeight`). They are computed with the
/// expressions of the general loop's first pass, on the same exact Float column offsets, so
/// every pixel gets the same bits as without the table. Preallocated scratch, grown when
/// needed; one per band worker.
final class ProjectiveColumns {
    /// Spare entries past the last column: the first pass works in whole blocks of 8.
    static let padding = 8

    private var capacity = 0
    private var reciprocal: UnsafeMutablePointer<Float> = .allocate(capacity: padding)
    private var texelU: UnsafeMutablePointer<Int32> = .allocate(capacity: padding)
    private var weightU: UnsafeMutablePointer<UInt32> = .allocate(capacity: padding)

    deinit { reciprocal.deallocate(); texelU.deallocate(); weightU.deallocate() }

    /// True when `s` is projective and its u and w do not depend on the screen row (the
    /// homography's y terms are exactly 0: `PreparedQuad` makes them so for vertical sides).
    static func applies(to s: QuadSampler) -> Bool {
        s.kind == .projective && s.um.1 == 0 && s.wm.1 == 0
    }

    /// Fills the table for screen columns `columns` of `s` (which must satisfy `applies`) and
    /// points `s` at it.
    func fill(_ s: inout QuadSampler, columns: Range<Int>) {
        // Whole blocks of 8 from the quad's first column, covering the columns plus a block.
        let first = max(0, columns.lowerBound &- s.originX) & ~7
        let end = (max(first, columns.upperBound &- s.originX) &+ ProjectiveColumns.padding &+ 7) & ~7
        if end > capacity {
            reciprocal.deallocate(); texelU.deallocate(); weightU.deallocate()
            capacity = end
            reciprocal = .allocate(capacity: capacity)
            texelU = .allocate(capacity: capacity)
            weightU = .allocate(capacity: capacity)
        }
        // The row does not matter: the y terms are 0 (0 · y is ±0 whatever y is).
        let (u0, du, _, _, w0, dw) = SpanShader.rowStart(s, y: 0)
        var ks = Float8(0, 1, 2, 3, 4, 5, 6, 7) + Float8(repeating: Float(first))
        var k = first
        while k < end {
            // The general loop's first pass, u only.
            var u = Float8(repeating: u0) + Float8(repeating: du) * ks
            let r = 1 / (Float8(repeating: w0) + Float8(repeating: dw) * ks)
            u *= r
            let fu = raster_fixed16(u, s.maxU, 256, s.maxUFixed)
            UnsafeMutableRawPointer(reciprocal + k).storeBytes(of: r, as: Float8.self)
            UnsafeMutableRawPointer(texelU + k).storeBytes(of: fu &>> 16, as: Int8x8.self)
            UnsafeMutableRawPointer(weightU + k).storeBytes(of: SpanShader.horizontalWeight(fu), as: UInt8x8.self)
            ks += 8
            k &+= 8
        }
        s.columns = ProjectiveColumnBuffers(reciprocal: UnsafePointer(reciprocal), texelU: UnsafePointer(texelU),
                                            weightU: UnsafePointer(weightU))
    }
}

/// The pointers of a filled `ProjectiveColumns` (trivially copyable, carried in `QuadSampler`),
/// indexed by the column's offset from the quad's first column.
struct ProjectiveColumnBuffers {
    /// 1 / w.
    var reciprocal: UnsafePointer<Float>
    /// u's left texel column (the integer part of u in 16.16 fixed point, clamped).
    var texelU: UnsafePointer<Int32>
    /// `horizontalWeight` of u.
    var weightU: UnsafePointer<UInt32>
}
