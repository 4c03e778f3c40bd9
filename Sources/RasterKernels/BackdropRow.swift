import RasterCore

/// The destination pixels an inner loop blends onto: the frame row itself (drawn before), the
/// backdrop image's row, or a solid colour.
enum BackdropRow {
    /// Blend onto what the destination row holds.
    case frame
    /// Blend onto this row (pixel 0 of the backdrop image's row) instead of reading the frame.
    case pixels(UnsafePointer<UInt32>)
    /// Blend onto one colour.
    case color(UInt32)
}

extension Backdrop {
    /// Where the pixels under row `y` come from, for the inner loops.
    @inline(__always)
    func source(row y: Int) -> BackdropRow {
        switch self {
        case .color(let c): return .color(c | 0xFF00_0000)
        case .rows(let colors): return .color(colors[y] | 0xFF00_0000)
        case .image(let image): return .pixels(UnsafePointer(image.pixels + y * image.stride))
        }
    }
}
