import CRasterSupport

/// What lies behind every quad: a solid colour, one colour per row (a vertical gradient), or an
/// image the size of the target canvas.
///
/// Given to `Compositor.draw(_:into:clip:backdrop:)`, it makes the compositor responsible for
/// every pixel of the clip: pixels no quad touches get the backdrop, and the quad drawn first at
/// a pixel blends against the backdrop directly instead of against pixels first filled and then
/// read back. The result is bit for bit that of filling the clip with the backdrop and drawing
/// the quads over it, with one pass over memory fewer (and, over a solid colour, no read of the
/// frame at all for those pixels).
public enum Backdrop {
    /// An opaque colour (XRGB8888; the X byte is written as 0xFF).
    case color(UInt32)
    /// One opaque colour per row (XRGB8888, row 0 first; at least as many rows as the target
    /// canvas): a vertical gradient without an image's memory to fill and read.
    case rows([UInt32])
    /// An opaque image with the target canvas's size (its X bytes are copied as they are).
    case image(Canvas)

    /// Writes the backdrop into pixels `x0..<x1` of row `y` (`row` points at the row's pixel 0).
    @inline(__always)
    package func fill(row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int) {
        guard x1 > x0 else { return }
        switch self {
        case .color(let c): raster_fill32(row + x0, c | 0xFF00_0000, x1 - x0)
        case .rows(let colors): raster_fill32(row + x0, colors[y] | 0xFF00_0000, x1 - x0)
        case .image(let image): raster_copy32(row + x0, image.pixels + y * image.stride + x0, x1 - x0)
        }
    }

    /// True when the backdrop can serve `canvas`: an image at least its size, a colour for each
    /// of its rows.
    package func fits(_ canvas: Canvas) -> Bool {
        switch self {
        case .color: return true
        case .rows(let colors): return colors.count >= canvas.height
        case .image(let image): return image.width >= canvas.width && image.height >= canvas.height
        }
    }
}
