import KioskConfig
import Raster

/// A rounded rectangle's area in each pixel of a row, as a scan converter finds it: the exact
/// horizontal extent on sixteen sample lines a pixel row where a corner's arc passes, the exact
/// area where only straight edges do (cairo's converter samples 15 lines a row and is exact
/// horizontally too).
struct RoundedRectCoverage {
    let left: Double, top: Double, right: Double, bottom: Double
    /// Clamped to half the shorter side, as `CairoContext.roundedRect` clamps it; 0: square.
    let radius: Double

    /// Sample lines a pixel row where a corner's arc passes.
    static let samplesPerRow = 16

    /// A shape with a side that is not a finite number covers nothing.
    init(left: Double, top: Double, right: Double, bottom: Double, radius: Double) {
        guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite else {
            (self.left, self.top, self.right, self.bottom, self.radius) = (0, 0, 0, 0, 0)
            return
        }
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
        self.radius = radius.isFinite ? max(0, min(radius, min(right - left, bottom - top) / 2)) : 0
    }

    /// The shape's extent along the line at height `y`; nil where the line misses it.
    func span(atY y: Double) -> (from: Double, to: Double)? {
        guard y >= top, y < bottom, right > left else { return nil }
        var dy = 0.0
        if y < top + radius { dy = top + radius - y } else if y > bottom - radius { dy = y - (bottom - radius) }
        let inset = dy > 0 ? radius - max(0, radius * radius - dy * dy).squareRoot() : 0
        return (left + inset, right - inset)
    }

    /// Adds the shape's coverage of pixel row `row` (0…1 a pixel, times `weight`) in `columns`
    /// to `coverage` (indexed by column).
    func add(row: Int, columns: Range<Int>, weight: Float, into coverage: inout [Float]) {
        let y0 = Double(row), y1 = y0 + 1
        let arcs = radius > 0 && (overlaps(y0, y1, top, top + radius) || overlaps(y0, y1, bottom - radius, bottom))
        if arcs {
            let n = RoundedRectCoverage.samplesPerRow
            for s in 0..<n {
                guard let span = span(atY: y0 + (Double(s) + 0.5) / Double(n)) else { continue }
                RoundedRectCoverage.addSpan(span, columns: columns, weight: weight / Float(n), into: &coverage)
            }
        } else {
            let v = min(y1, bottom) - max(y0, top)
            guard v > 0 else { return }
            RoundedRectCoverage.addSpan((left, right), columns: columns, weight: weight * Float(v), into: &coverage)
        }
    }

    /// The shape's coverage of a pixel in row `row` where the row crosses straight edges only
    /// (between its corners, or with no corners): the row's overlap with the shape's height.
    func straightCoverage(row: Int) -> Float {
        let y0 = Double(row), y1 = y0 + 1
        return right > left ? Float(max(0, min(y1, bottom) - max(y0, top))) : 0
    }

    private func overlaps(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Bool {
        min(a1, b1) > max(a0, b0)
    }

    /// Adds each pixel's share of the horizontal extent `span` (clipped to `columns`), times
    /// `weight`.
    static func addSpan(_ span: (from: Double, to: Double), columns: Range<Int>, weight: Float, into coverage: inout [Float]) {
        let a = max(span.from, Double(columns.lowerBound)), b = min(span.to, Double(columns.upperBound))
        guard b > a else { return }
        let first = Int(a.rounded(.down)), last = Int(b.rounded(.down))
        if first == last {
            coverage[first] += Float(b - a) * weight
            return
        }
        coverage[first] += Float(Double(first + 1) - a) * weight
        if first + 1 < last { for x in (first + 1)..<last { coverage[x] += weight } }
        if last < columns.upperBound { coverage[last] += Float(b - Double(last)) * weight }
    }

    /// Paints `color` (straight alpha) over `texture` where the shape covers it, each pixel by
    /// its coverage: a filled rounded rectangle, circle or pill, as cairo fills one.
    func fill(_ texture: Texture, color: ARGBColor) {
        let source = PremultipliedMath.premultiplied(color)
        guard source >> 24 > 0 else { return }
        let firstRow = max(0, Int(top.rounded(.down))), endRow = min(texture.height, Int(bottom.rounded(.up)))
        let firstColumn = max(0, Int(left.rounded(.down))), endColumn = min(texture.width, Int(right.rounded(.up)))
        guard firstRow < endRow, firstColumn < endColumn else { return }
        let columns = firstColumn..<endColumn
        var coverage = [Float](repeating: 0, count: texture.width)
        for row in firstRow..<endRow {
            for x in columns { coverage[x] = 0 }
            add(row: row, columns: columns, weight: 1, into: &coverage)
            let line = texture.pixels + row * texture.width
            for x in columns {
                let m = PremultipliedMath.byte(coverage[x])
                if m > 0 { line[x] = PremultipliedMath.over(source, coverage: m, onto: line[x]) }
            }
        }
    }
}
