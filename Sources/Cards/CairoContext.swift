import CCardLibs
import KioskConfig
import Raster

/// A cairo context drawing straight into a `Texture`'s memory. cairo's `CAIRO_FORMAT_ARGB32`
/// is premultiplied 0xAARRGGBB in native-endian 32-bit words — on little-endian machines exactly
/// the texture's layout — and its stride for 4-byte pixels is `width * 4`, so no copy is made.
final class CairoContext {
    let texture: Texture
    let cr: OpaquePointer
    private let surface: OpaquePointer
    /// True once text was laid out or an SVG document drawn on the context (`willDrawText`):
    /// only then can it hold a scaled font, so only then is it destroyed under `FontLock`. A
    /// context that only filled and stroked (a loading face, the page dots) is destroyed at
    /// once, without waiting for text drawn on another thread (`FirstFrameAhead`, the card
    /// workers).
    private(set) var mayHoldFonts = false

    init(texture: Texture) {
        self.texture = texture
        surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_ARGB32, Int32(texture.width), Int32(texture.height), Int32(texture.width * 4))
        cr = cairo_create(surface)
    }

    /// A context drawing on `surface` (which the context takes over and destroys), a surface
    /// that draws into `texture`'s memory: an observer wrapping it (`FaceOverlay`).
    init(texture: Texture, surface: OpaquePointer) {
        self.texture = texture
        self.surface = surface
        cr = cairo_create(surface)
    }

    deinit {
        if mayHoldFonts {
            // The context may hold the last reference to a scaled font pango drew with.
            FontLock.withLock { cairo_destroy(cr) }
        } else {
            cairo_destroy(cr)
        }
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }

    /// Text is about to be drawn on the context (pango, or librsvg's `<text>`): every path that
    /// draws text takes the context itself, not its `cr`, and calls this first.
    func willDrawText() { mayHoldFonts = true }

    /// Finishes drawing: everything is in the texture's memory afterwards.
    func flush() { cairo_surface_flush(surface) }

    /// Tells cairo that the texture's memory was written without it (before it draws again).
    func markDirty() { cairo_surface_mark_dirty(surface) }

    func setColor(_ c: ARGBColor, alpha: Double = 1) {
        cairo_set_source_rgba(cr, Double((c >> 16) & 0xFF) / 255, Double((c >> 8) & 0xFF) / 255,
                              Double(c & 0xFF) / 255, Double(c >> 24) / 255 * alpha)
    }

    /// A rounded-rectangle path (radius clamped to half the shorter side).
    func roundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        let r = max(0, min(radius, min(w, h) / 2))
        cairo_new_path(cr)
        if r <= 0 {
            cairo_rectangle(cr, x, y, w, h)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Fills the current path (or the whole clip) with a vertical gradient `top` → `bottom`
    /// between `y0` and `y1`; a flat colour when `bottom` is nil.
    func paintVertical(top: ARGBColor, bottom: ARGBColor?, y0: Double, y1: Double, alpha: Double = 1) {
        guard let bottom, bottom != top else {
            setColor(top, alpha: alpha)
            cairo_paint(cr)
            return
        }
        let g = cairo_pattern_create_linear(0, y0, 0, y1)
        for (offset, c) in [(0.0, top), (1.0, bottom)] {
            cairo_pattern_add_color_stop_rgba(g, offset, Double((c >> 16) & 0xFF) / 255, Double((c >> 8) & 0xFF) / 255,
                                              Double(c & 0xFF) / 255, Double(c >> 24) / 255 * alpha)
        }
        cairo_set_source(cr, g)
        cairo_paint(cr)
        cairo_pattern_destroy(g)
    }

    /// Draws `image` (premultiplied) scaled into the rectangle, with cairo's GOOD filter (a
    /// box filter when shrinking), clipped to the current clip.
    func draw(_ image: Texture, x: Double, y: Double, width: Double, height: Double) {
        let src = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(image.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        defer { cairo_surface_destroy(src) }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, width / Double(image.width), height / Double(image.height))
        cairo_set_source_surface(cr, src, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(cr)
        cairo_restore(cr)
    }
}
