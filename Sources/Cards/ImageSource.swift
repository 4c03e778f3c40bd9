import Raster

/// An item's picture, loaded for one card size: decoded pixels (PNG, JPEG, WebP — upright,
/// premultiplied, already reduced where the format allows) or an SVG document drawn later at
/// the card's size.
enum ImageSource {
    case raster(Texture)
    case svg(SVGDocument)

    /// Reads, recognises and decodes `path` for a `boxWidth × boxHeight` card.
    static func load(path: String, fit: ImageFit, boxWidth: Int, boxHeight: Int, limits: ImageLimits) throws -> ImageSource {
        let bytes = try ImageFile.read(path, limits: limits)
        switch try ImageFormat.sniff(bytes, path: path) {
        case .jpeg:
            return .raster(try JPEGDecoder.decode(bytes, file: path, fit: fit, boxWidth: boxWidth, boxHeight: boxHeight, limits: limits))
        case .png:
            return .raster(try PNGDecoder.decode(bytes, file: path, limits: limits))
        case .webp:
            return .raster(try WebPDecoder.decode(bytes, file: path, fit: fit, boxWidth: boxWidth, boxHeight: boxHeight, limits: limits))
        case .svg:
            return .svg(try SVGDocument(bytes, file: path))
        }
    }

    /// Draws the picture fitted into the card (`x`, `y`, `width`, `height`) on `context`.
    func draw(on context: CairoContext, fit: ImageFit, x: Double, y: Double, width: Double, height: Double) throws {
        switch self {
        case .raster(let t):
            let p = fit.place(imageWidth: Double(t.width), imageHeight: Double(t.height), boxWidth: width, boxHeight: height)
            context.draw(t, x: x + p.x, y: y + p.y, width: p.width, height: p.height)
        case .svg(let doc):
            // librsvg keeps the document's aspect ratio inside the viewport; give it the fitted box.
            let size = doc.intrinsicSize ?? (width, height)
            let p = fit.place(imageWidth: size.width, imageHeight: size.height, boxWidth: width, boxHeight: height)
            try doc.render(on: context.cr, x: x + p.x, y: y + p.y, width: p.width, height: p.height)
        }
    }
}
