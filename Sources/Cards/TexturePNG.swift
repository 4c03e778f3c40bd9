import CCardLibs
import Raster

/// Textures to and from PNG files through cairo (straight RGBA on disk, premultiplied in
/// memory). For golden tests, benchmarks and debugging — card images are read by `PNGDecoder`.
public enum TexturePNG {
    /// Writes `texture` as a PNG with alpha.
    public static func write(_ texture: Texture, to path: String) throws {
        let surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_ARGB32, Int32(texture.width), Int32(texture.height), Int32(texture.width * 4))
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CardFailure(file: path, reason: "cannot write PNG: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// Reads a PNG (any colour type) as a premultiplied texture.
    public static func read(_ path: String) throws -> Texture {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CardFailure(file: path, reason: "cannot read PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let texture = Texture(width: w, height: h)
        let ctx = CairoContext(texture: texture)
        cairo_set_source_surface(ctx.cr, surface, 0, 0)
        cairo_set_operator(ctx.cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(ctx.cr)
        ctx.flush()
        return texture
    }
}
