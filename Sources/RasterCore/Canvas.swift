import CarouselCore
import CRasterSupport

/// A view over 32-bit pixel memory (premultiplied ARGB8888, or XRGB8888 for frames): a frame we
/// draw into, or a mapped display buffer. `stride` is in pixels. A canvas that allocated its
/// memory frees it; one made over foreign memory does not.
public final class Canvas {
    public let width: Int
    public let height: Int
    /// Pixels per row (≥ width).
    public let stride: Int
    public let pixels: UnsafeMutablePointer<UInt32>
    private let owns: Bool

    /// A canvas owning zeroed, cache-friendly memory.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative canvas size")
        self.width = width
        self.height = height
        self.stride = width
        let count = max(1, width * height)
        pixels = ZeroedPixels.allocate(count: count)
        owns = true
    }

    /// A canvas over memory someone else owns (a mapped dumb buffer, a framebuffer).
    public init(wrapping memory: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        precondition(stride >= width, "stride shorter than a row")
        self.width = width
        self.height = height
        self.stride = stride
        pixels = memory
        owns = false
    }

    deinit { if owns { ZeroedPixels.release(pixels) } }

    /// The whole canvas as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * stride + x] }
        set { pixels[y * stride + x] = newValue }
    }

    /// Fills a rectangle (clipped to the canvas) with one pixel value.
    public func fill(_ value: UInt32, x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + (w ?? width)), y1 = min(height, y + (h ?? height))
        guard x1 > x0, y1 > y0 else { return }
        for row in y0..<y1 { raster_fill32(pixels + row * stride + x0, value, x1 - x0) }
    }

    /// Copies a rectangle of `source` into the same place of this canvas (sizes may differ; the
    /// copy is clipped to both). Used to move damaged rows from the cached frame to the display.
    public func copy(from source: Canvas, x: Int, y: Int, width w: Int, height h: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(min(width, source.width), x + w), y1 = min(min(height, source.height), y + h)
        guard x1 > x0, y1 > y0, source !== self else { return }
        for row in y0..<y1 {
            raster_copy32(pixels + row * stride + x0, source.pixels + row * source.stride + x0, x1 - x0)
        }
    }
}


