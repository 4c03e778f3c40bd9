import CarouselCore
import Foundation
import Raster

/// WCAG 2.x contrast, computed from pixels: relative luminance of sRGB (the frame's ARGB8888,
/// opaque) and the ratio (L1 + 0.05) / (L2 + 0.05).
enum WCAGContrast {
    /// One sRGB channel (0…255) made linear.
    static func linear(_ c: UInt32) -> Double {
        let s = Double(c & 0xFF) / 255
        return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }

    /// Relative luminance of a pixel (0: black, 1: white).
    static func luminance(_ p: UInt32) -> Double {
        0.2126 * linear(p >> 16) + 0.7152 * linear(p >> 8) + 0.0722 * linear(p)
    }

    /// The contrast ratio of two pixels (1…21).
    static func ratio(_ a: UInt32, _ b: UInt32) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// What one kind of text measured. Its pixels are those that differ (`differs`) between a
    /// frame with it and the same frame with it drawn fully transparent (`without`), apart from
    /// the anti-aliased outlines of the cards (`outlines`: where one card's edge crosses another's
    /// text, the pixel is a mix of both, not text on a background). Its colour is the most
    /// common value of those pixels (the glyphs' cores; the anti-aliased edges vary); what is
    /// behind it is `without` at each of those pixels.
    struct Measurement: CustomStringConvertible {
        var pixels: Int
        var colour: UInt32
        /// The lowest ratio of the text's colour against anything behind any of its pixels.
        var minRatio: Double
        /// The text pixels' bounding box (x0, y0, x1, y1).
        var box: (Int, Int, Int, Int)
        var height: Int { box.3 - box.1 + 1 }
        var description: String {
            String(format: "%d px, colour #%06X, min %.2f:1, box %d,%d–%d,%d", pixels, colour & 0xFF_FFFF, minRatio,
                   box.0, box.1, box.2, box.3)
        }
    }

    /// A text pixel: some channel changed by at least 48 of 255 (fainter changes are glyph
    /// edges bleeding through filtering, not text a person reads).
    static func differs(_ a: UInt32, _ b: UInt32) -> Bool {
        for shift: UInt32 in [16, 8, 0] {
            let ca = Int((a >> shift) & 0xFF), cb = Int((b >> shift) & 0xFF)
            if abs(ca - cb) >= 48 { return true }
        }
        return false
    }

    /// True when the pixel centre (x, y) is within `reach` pixels of an edge of any outline.
    static func onOutline(_ x: Int, _ y: Int, _ outlines: [[Point2]], reach: Double = 1.5) -> Bool {
        let p = Point2(Double(x) + 0.5, Double(y) + 0.5)
        for corners in outlines {
            for i in corners.indices {
                let a = corners[i], b = corners[(i + 1) % corners.count]
                let dx = b.x - a.x, dy = b.y - a.y
                let length2 = dx * dx + dy * dy
                let t = length2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2)) : 0
                let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
                if ex * ex + ey * ey <= reach * reach { return true }
            }
        }
        return false
    }

    static func measure(with: Canvas, without: Canvas, outlines: [[Point2]] = []) -> Measurement {
        precondition(with.width == without.width && with.height == without.height)
        var counts: [UInt32: Int] = [:]
        var behind: Set<UInt32> = []
        var box = (Int.max, Int.max, -1, -1)
        for y in 0..<with.height {
            for x in 0..<with.width {
                let a = with[x, y] | 0xFF00_0000, b = without[x, y] | 0xFF00_0000
                guard differs(a, b), !onOutline(x, y, outlines) else { continue }
                counts[a, default: 0] += 1
                behind.insert(b)
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            }
        }
        let total = counts.values.reduce(0, +)
        let colour = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 0
        let minRatio = behind.map { ratio(colour, $0) }.min() ?? .infinity
        return Measurement(pixels: total, colour: colour, minRatio: minRatio, box: box)
    }
}
