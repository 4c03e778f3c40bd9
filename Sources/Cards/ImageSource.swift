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
        let format = try ImageFormat.sniff(bytes, path: path)
        if format != .svg {
            do { try CardLibraries.loadImageDecoders() } catch { throw CardFailure(file: path, reason: error.description) }
        }
        switch format {
        case .jpeg:
            return .raster(try JPEGDecoder.decode(bytes, file: path, fit: fit, boxWidth: boxWidth, boxHeight: boxHeight, limits: limits))
        case .png:
            let full = try PNGDecoder.decode(bytes, file: path, limits: limits)
            return .raster(reduced(full, fit: fit, boxWidth: boxWidth, boxHeight: boxHeight))
        case .webp:
            return .raster(try WebPDecoder.decode(bytes, file: path, fit: fit, boxWidth: boxWidth, boxHeight: boxHeight, limits: limits))
        case .svg:
            return .svg(try SVGDocument(bytes, file: path))
        }
    }

    /// Halves a decoded picture (2×2 box filter) while it stays at least the size it is drawn
    /// at, so cairo's final filtered scale works on at most twice the needed pixels.
    static func reduced(_ image: Texture, fit: ImageFit, boxWidth: Int, boxHeight: Int) -> Texture {
        var t = image
        var s = fit.scale(imageWidth: Double(t.width), imageHeight: Double(t.height),
                          boxWidth: Double(boxWidth), boxHeight: Double(boxHeight))
        while s <= 0.5, t.width >= 2, t.height >= 2 {
            t = t.halved()
            s *= 2
        }
        return t
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
            try doc.render(on: context, x: x + p.x, y: y + p.y, width: p.width, height: p.height)
        }
    }
}

extension Texture {
    /// Half the size (rounded down), each pixel the average of a 2×2 block (premultiplied).
    func halved() -> Texture {
        let w = width / 2, h = height / 2
        let out = Texture(width: w, height: h)
        let src = pixels, sw = width
        for y in 0..<h {
            let r0 = src + (2 * y) * sw, r1 = r0 + sw
            let o = out.pixels + y * w
            for x in 0..<w {
                let a = r0[2 * x], b = r0[2 * x + 1], c = r1[2 * x], d = r1[2 * x + 1]
                // Two channels at a time: (x & 0x00FF00FF) holds R and B, (x >> 8) & 0x00FF00FF A and G.
                let rb = ((a & 0x00FF_00FF) + (b & 0x00FF_00FF) + (c & 0x00FF_00FF) + (d & 0x00FF_00FF) + 0x0002_0002) >> 2
                let ag = (((a >> 8) & 0x00FF_00FF) + ((b >> 8) & 0x00FF_00FF) + ((c >> 8) & 0x00FF_00FF)
                          + ((d >> 8) & 0x00FF_00FF) + 0x0002_0002) >> 2
                o[x] = (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
            }
        }
        return out
    }
}
