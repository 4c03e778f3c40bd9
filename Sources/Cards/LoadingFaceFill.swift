import KioskConfig
import Raster

/// The loading face (a card's background, rounded corners and border: what a card shows until
/// its real face is drawn) written straight into a texture, without cairo. The first frame is
/// made of loading faces; drawn with cairo, it waited for cairo and pango to be opened on the
/// fonts' thread (behind fontconfig's load), and under QEMU TCG it translated cairo's fill and
/// stroke code on the main thread as well (docs/start-up.md, stop 68). The result matches
/// cairo's drawing of the same (the gradient under the rounded clip, the border stroked) but at
/// the curved edges, by a few levels (`LoadingFaceFillTests`). Every face's corners are cut
/// this way (`CardFaceRenderer.paintBackground`); the other faces' borders cairo strokes.
enum LoadingFaceFill {
    /// The face of `style` at `width` × `height`: the vertical gradient (`VerticalGradientFill`),
    /// what lies outside the rounded corners cleared, then the border stroked over it.
    static func face(style: CardStyle, width: Int, height: Int) -> Texture {
        let texture = Texture(width: max(1, width), height: max(1, height))
        VerticalGradientFill.fill(texture, top: style.background, bottom: style.backgroundBottom)
        let W = Double(texture.width), H = Double(texture.height)
        cutCorners(texture, card: RoundedRectCoverage(left: 0, top: 0, right: W, bottom: H, radius: style.cornerRadius))
        strokeBorder(texture, style: style)
        return texture
    }

    /// Scales every pixel by the card's coverage of it (as cairo's `CLEAR` of the region between
    /// each corner and its arc does): only the four corner squares have pixels partly outside.
    static func cutCorners(_ texture: Texture, card: RoundedRectCoverage) {
        guard card.radius > 0 else { return }
        let W = texture.width, H = texture.height
        let reach = Int(card.radius.rounded(.up))
        let windows = columnWindows(width: W, margin: reach)
        var coverage = [Float](repeating: 0, count: W)
        for row in bandRows(height: H, margin: reach) {
            let line = texture.pixels + row * W
            for columns in windows {
                clear(&coverage, columns)
                card.add(row: row, columns: columns, weight: 1, into: &coverage)
                for x in columns { line[x] = PremultipliedMath.scaled(line[x], by: PremultipliedMath.byte(coverage[x])) }
            }
        }
    }

    /// The border as cairo strokes it (`CardFaceRenderer.strokeBorder`: a rounded rectangle
    /// path half the border's width inside the card, stroked that wide): the region between the
    /// path's outer offset (its corners' radius grown by half the width; square when the path's
    /// corners are) and its inner offset (shrunk by half the width, at least square), drawn over
    /// the face in the border's colour.
    static func strokeBorder(_ texture: Texture, style: CardStyle) {
        let W = Double(texture.width), H = Double(texture.height)
        guard style.borderWidth > 0 else { return }
        let bw = min(style.borderWidth, min(W, H) / 2)
        let pathRadius = max(0, min(style.cornerRadius - bw / 2, min(W - bw, H - bw) / 2))
        let outer = RoundedRectCoverage(left: 0, top: 0, right: W, bottom: H, radius: pathRadius > 0 ? pathRadius + bw / 2 : 0)
        let inner = RoundedRectCoverage(left: bw, top: bw, right: W - bw, bottom: H - bw, radius: max(0, pathRadius - bw / 2))
        let color = PremultipliedMath.premultiplied(style.borderColor)
        let width = texture.width
        // Rows where the border is more than its two sides: the top and bottom bands, down to
        // where both offsets' corners end. The corners reach as far in from the sides, so in
        // those rows the columns between them see straight edges only: there each shape covers
        // a pixel by the row's overlap with it, the same all along (`straightCoverage`), and only
        // the corners' columns are sampled (stop 70: sampling whole rows was a tenth of the
        // main thread's instructions to the first frame).
        let band = Int(max(bw, outer.radius, bw + inner.radius).rounded(.up))
        let corners = columnWindows(width: width, margin: band), sides = columnWindows(width: width, margin: Int(bw.rounded(.up)))
        let between = corners.count == 2 ? corners[0].upperBound..<corners[1].lowerBound : 0..<0
        var outerCoverage = [Float](repeating: 0, count: width), innerCoverage = outerCoverage
        for row in 0..<texture.height {
            let inBand = row < band || row >= texture.height - band
            let line = texture.pixels + row * width
            if inBand, !between.isEmpty {
                let m = PremultipliedMath.byte(outer.straightCoverage(row: row) - inner.straightCoverage(row: row))
                if m > 0 { for x in between { line[x] = PremultipliedMath.over(color, coverage: m, onto: line[x]) } }
            }
            for columns in inBand ? corners : sides {
                clear(&outerCoverage, columns)
                clear(&innerCoverage, columns)
                outer.add(row: row, columns: columns, weight: 1, into: &outerCoverage)
                inner.add(row: row, columns: columns, weight: 1, into: &innerCoverage)
                for x in columns {
                    let m = PremultipliedMath.byte(outerCoverage[x] - innerCoverage[x])
                    if m > 0 { line[x] = PremultipliedMath.over(color, coverage: m, onto: line[x]) }
                }
            }
        }
    }

    /// The rows within `margin` of the top or the bottom edge, each once.
    static func bandRows(height: Int, margin: Int) -> [Int] {
        let top = min(height, margin), bottom = max(top, height - margin)
        return Array(0..<top) + Array(bottom..<height)
    }

    /// The column ranges within `margin` of the left or the right edge: one range when they meet.
    static func columnWindows(width: Int, margin: Int) -> [Range<Int>] {
        let left = min(width, margin), right = max(0, width - margin)
        return right <= left ? [0..<width] : [0..<left, right..<width]
    }

    private static func clear(_ values: inout [Float], _ columns: Range<Int>) {
        for x in columns { values[x] = 0 }
    }
}
