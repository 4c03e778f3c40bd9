import CCardLibs

/// An SVG parsed by librsvg from memory, with no base file: librsvg then resolves no relative
/// or absolute reference (it needs a base to allow any), and `SVGReferenceScanner` refuses
/// documents that have one before librsvg sees them. Drawn at the card's size, never rasterised
/// at its own.
final class SVGDocument {
    private let handle: OpaquePointer
    let file: String

    /// Parses `bytes` (at most `limits.maxFileBytes`, already read).
    convenience init(_ bytes: [UInt8], file: String) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        if let reference = SVGReferenceScanner.firstExternalReference(in: text) {
            throw CardFailure(file: file, reason: "SVG references an external resource (\(reference.prefix(80))); not followed")
        }
        try self.init(unscanned: bytes, file: file)
    }

    /// Parses without the reference check (tests use it to show librsvg follows nothing).
    init(unscanned bytes: [UInt8], file: String) throws {
        self.file = file
        do { try SVGLibrary.load() } catch { throw CardFailure(file: file, reason: error.description) }
        var error: UnsafeMutablePointer<GError>?
        let stream = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<GInputStream>? in
            // g_memory_input_stream copies nothing; the bytes outlive the synchronous parse.
            let copy = g_memdup2(raw.baseAddress, gsize(raw.count))
            return g_memory_input_stream_new_from_data(copy, gssize(raw.count), g_free)
        }
        guard let stream else { throw CardFailure(file: file, reason: "out of memory reading SVG") }
        defer { g_object_unref(stream) }
        guard let h = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error) else {
            throw CardFailure(file: file, reason: "cannot parse SVG (\(SVGDocument.take(error)))")
        }
        handle = h
        rsvg_handle_set_dpi(h, 96)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Width and height in pixels from `width`/`height`, else from the `viewBox`; nil when the
    /// document says neither (it then fills the card).
    var intrinsicSize: (width: Double, height: Double)? {
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) != 0, w > 0, h > 0 { return (w, h) }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 { return (viewBox.width, viewBox.height) }
        return nil
    }

    /// Draws the document into `viewport` (cairo user space) on `context`.
    func render(on context: CairoContext, x: Double, y: Double, width: Double, height: Double) throws {
        var viewport = RsvgRectangle(x: x, y: y, width: width, height: height)
        var error: UnsafeMutablePointer<GError>?
        // librsvg draws `<text>` with pango and cairo scaled fonts.
        FontStartup.loadConfiguration()
        context.willDrawText()
        let ok = FontLock.withLock { rsvg_handle_render_document(handle, context.cr, &viewport, &error) }
        if ok == 0 {
            throw CardFailure(file: file, reason: "cannot render SVG (\(SVGDocument.take(error)))")
        }
    }

    /// The message of a GError (freed).
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
