import CCardLibs
import Foundation
import Raster

/// What a card face draws over a picture fitted `cover` on whole pixels — the rounded corners'
/// antialiased edge over the background, then the shadow, the text and the border — recorded
/// once per card and size as pixel layers, and blended onto each frame's picture with the same
/// arithmetic cairo uses: the same bytes as drawing them with cairo, without cairo.
///
/// Each drawing operation cairo makes (a fill, a stroke, a run of glyphs, a paint) composites
/// `source IN mask` OVER the face. Recorded on a transparent surface, one operation at a time
/// (a cairo observer surface takes it off after each), an operation's result is exactly its
/// `source IN mask`, `s`; replayed in order as `d = s + d × (255 − s.alpha) / 255` on the face,
/// it gives what cairo gives. The division rounds as pixman does (`+ 128`), or as cairo's own
/// span fillers for an opaque colour do (`+ 127`): which one each operation used is found by
/// drawing it again over a picture of varied pixels and comparing. An operation that neither
/// reproduces, or corners that do not, leave the overlay unusable (`nil`: the composer draws
/// with cairo). Only the pixels an operation touches are kept (a span a row), so a frame pays
/// for the text's rows and the corners, not the card.
///
/// The corners: drawn through the card's rounded clip over the kept background, a picture pixel
/// `p` at clip coverage `c` becomes `p × c / 255 + background × (255 − c) / 255`; the second
/// term is kept per pixel, where the coverage is below 255.
struct FaceOverlay {
    /// Pixels of one row from `x` on, stored at `start` in the layer's pixel array.
    struct Span {
        var y: Int32, x: Int32, count: Int32, start: Int32
    }

    /// Pixels an operation (or the corners) changes, a span a row.
    struct Layer {
        var spans: [Span] = []
        var pixels: [UInt32] = []
        /// Per pixel, what the division by 255 adds before it is shifted: 128 (pixman) or 127
        /// (cairo's span fillers for an opaque colour); empty for the corners.
        var roundings: [UInt8] = []
    }

    /// The clip coverage where it is below 255, and the background's share there.
    let corners: (coverage: Layer, background: [UInt32])
    /// The operations drawn over the picture, in order.
    let layers: [Layer]

    /// Records the card's corners (`clip` sets the card's clip on a context) over `background`,
    /// and `overPicture`'s operations, on `width × height`; nil when the replay would not give
    /// cairo's bytes.
    init?(width: Int, height: Int, background: Texture,
          clip: (CairoContext) -> Void, overPicture: (CairoContext) -> Void) {
        let canvas = Texture(width: width, height: height)
        // The clip's coverage: opaque white painted through it.
        do {
            let ctx = CairoContext(texture: canvas)
            clip(ctx)
            cairo_set_source_rgba(ctx.cr, 1, 1, 1, 1)
            cairo_paint(ctx.cr)
            ctx.flush()
        }
        var coverage = Layer(), share: [UInt32] = []
        for y in 0..<height {
            let row = canvas.pixels + y * width
            var x = 0
            while x < width {
                guard row[x] >> 24 != 255 else { x += 1; continue }
                var end = x
                while end < width, row[end] >> 24 != 255 { end += 1 }
                coverage.spans.append(Span(y: Int32(y), x: Int32(x), count: Int32(end - x), start: Int32(coverage.pixels.count)))
                for i in x..<end {
                    let c = row[i] >> 24
                    coverage.pixels.append(c)
                    share.append(Self.multiply(background.pixels[y * width + i], by: 255 - c))
                }
                x = end
            }
        }
        corners = (coverage, share)
        // The probe picture drawn through the clip over the background, as the face draws it.
        let probe = Self.probe(width: width, height: height)
        do {
            canvas.pixels.update(from: background.pixels, count: width * height)
            let ctx = CairoContext(texture: canvas)
            clip(ctx)
            ctx.draw(probe, x: 0, y: 0, width: Double(width), height: Double(height))
            ctx.flush()
        }
        let replayed = Texture(width: width, height: height)
        replayed.pixels.update(from: probe.pixels, count: width * height)
        Self.blendCorners(corners, onto: replayed)
        guard Self.same(canvas, replayed) else { return nil }
        // Each operation alone on transparent pixels; then each over a probe whose pixels under
        // it tell the two roundings apart.
        canvas.pixels.update(repeating: 0, count: width * height)
        var layers = Self.record(on: canvas, probes: nil, overPicture).layers
        let probes = layers.map { Self.probe(under: $0, base: probe) }
        if let first = probes.first { canvas.pixels.update(from: first.pixels, count: width * height) }
        let results = Self.record(on: canvas, probes: probes, overPicture).snapshots
        guard results.count == layers.count else { return nil }
        for k in layers.indices {
            guard let roundings = Self.roundings(of: layers[k], over: probes[k], giving: results[k]) else { return nil }
            layers[k].roundings = roundings
        }
        self.layers = layers.filter { !$0.spans.isEmpty }
    }

    /// For each factor b, a channel value d whose d × b / 255 differs between the two roundings
    /// (0x80 where none does: the rounding cannot matter there).
    private static let telling: [UInt32] = (0...255).map { b in
        (0...255).first { d in multiply(UInt32(d), by: UInt32(b), rounding: 127) != multiply(UInt32(d), by: UInt32(b)) }
            .map(UInt32.init) ?? 0x80
    }

    /// `base` with each pixel `layer` draws on made grey of the value that tells the roundings
    /// apart for that pixel's alpha.
    private static func probe(under layer: Layer, base: Texture) -> Texture {
        let probe = Texture(width: base.width, height: base.height)
        probe.pixels.update(from: base.pixels, count: base.width * base.height)
        for span in layer.spans {
            for i in 0..<Int(span.count) {
                let d = telling[Int(255 - layer.pixels[Int(span.start) + i] >> 24)]
                probe.pixels[Int(span.y) * base.width + Int(span.x) + i] = 0xFF00_0000 | d << 16 | d << 8 | d
            }
        }
        return probe
    }

    /// The rounding of each of `layer`'s pixels with which it gives `result` (what cairo drew)
    /// over `probe`; nil when a pixel has none, or cairo changed a pixel outside the layer.
    private static func roundings(of layer: Layer, over probe: Texture, giving result: Texture) -> [UInt8]? {
        let w = probe.width
        let expected = Texture(width: w, height: probe.height)
        expected.pixels.update(from: probe.pixels, count: w * probe.height)
        var roundings = [UInt8](repeating: 128, count: layer.pixels.count)
        for span in layer.spans {
            for i in 0..<Int(span.count) {
                let k = Int(span.start) + i, at = Int(span.y) * w + Int(span.x) + i
                let s = layer.pixels[k], d = probe.pixels[at]
                let b = 255 - s >> 24
                if s &+ multiply(d, by: b) == result.pixels[at] {
                    expected.pixels[at] = result.pixels[at]
                } else if s &+ multiply(d, by: b, rounding: 127) == result.pixels[at] {
                    expected.pixels[at] = result.pixels[at]
                    roundings[k] = 127
                } else {
                    return nil
                }
            }
        }
        return same(expected, result) ? roundings : nil
    }

    /// Opaque pixels that vary from one to the next: the picture the corners are checked with,
    /// and what the operations' probes hold where they do not draw.
    private static func probe(width: Int, height: Int) -> Texture {
        Texture(width: width, height: height) { x, y in
            let v = UInt32(truncatingIfNeeded: (x &* 7919 &+ y &* 104_729) &* 2_654_435_761)
            return 0xFF00_0000 | (v >> 8 & 0x00FF_FFFF)
        }
    }

    private static func same(_ a: Texture, _ b: Texture) -> Bool {
        memcmp(a.pixels, b.pixels, a.width * a.height * 4) == 0
    }

    /// `draw`'s operations on `canvas`, each taken off it: with no `probes`, as layers (the
    /// pixels drawn on the transparent canvas, cleared after each); with them, as the whole canvas
    /// after each, which is then set to the next probe.
    private static func record(on canvas: Texture, probes: [Texture]?, _ draw: (CairoContext) -> Void) -> Recorder {
        let recorder = Recorder(canvas: canvas, probes: probes)
        let target = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(canvas.pixels).assumingMemoryBound(to: UInt8.self),
            CAIRO_FORMAT_ARGB32, Int32(canvas.width), Int32(canvas.height), Int32(canvas.width * 4))
        defer { cairo_surface_destroy(target) }
        guard let observer = cairo_surface_create_observer(target, CAIRO_SURFACE_OBSERVER_NORMAL) else { return recorder }
        let data = Unmanaged.passUnretained(recorder).toOpaque()
        let taken: cairo_surface_observer_callback_t = { _, target, data in
            guard let data else { return }
            cairo_surface_flush(target)
            Unmanaged<Recorder>.fromOpaque(data).takeUnretainedValue().take()
            cairo_surface_mark_dirty(target)
        }
        cairo_surface_observer_add_paint_callback(observer, taken, data)
        cairo_surface_observer_add_mask_callback(observer, taken, data)
        cairo_surface_observer_add_fill_callback(observer, taken, data)
        cairo_surface_observer_add_stroke_callback(observer, taken, data)
        cairo_surface_observer_add_glyphs_callback(observer, taken, data)
        withExtendedLifetime(recorder) {
            let ctx = CairoContext(texture: canvas, surface: observer)
            draw(ctx)
            ctx.flush()
        }
        return recorder
    }

    /// Takes each operation off the canvas.
    private final class Recorder {
        let canvas: Texture
        let probes: [Texture]?
        var layers: [Layer] = []
        var snapshots: [Texture] = []
        init(canvas: Texture, probes: [Texture]?) {
            self.canvas = canvas
            self.probes = probes
        }

        func take() {
            let w = canvas.width, n = canvas.width * canvas.height
            if let probes {
                let snapshot = Texture(width: w, height: canvas.height)
                snapshot.pixels.update(from: canvas.pixels, count: n)
                snapshots.append(snapshot)
                if snapshots.count < probes.count { canvas.pixels.update(from: probes[snapshots.count].pixels, count: n) }
                return
            }
            var layer = Layer()
            for y in 0..<canvas.height {
                let row = canvas.pixels + y * w
                guard let first = (0..<w).first(where: { row[$0] != 0 }) else { continue }
                let last = (0..<w).last(where: { row[$0] != 0 })!
                layer.spans.append(Span(y: Int32(y), x: Int32(first), count: Int32(last + 1 - first), start: Int32(layer.pixels.count)))
                layer.pixels.append(contentsOf: UnsafeBufferPointer(start: row + first, count: last + 1 - first))
                (row + first).update(repeating: 0, count: last + 1 - first)
            }
            // An operation that changed nothing is still one: the probe run pairs them by position.
            layers.append(layer)
        }
    }

    /// Blends the corners and the layers onto `face`, which holds the picture (opaque) on every
    /// pixel.
    func apply(to face: Texture) {
        Self.blendCorners(corners, onto: face)
        for layer in layers { Self.blend(layer, onto: face) }
    }

    private static func blendCorners(_ corners: (coverage: Layer, background: [UInt32]), onto face: Texture) {
        let w = face.width
        corners.coverage.pixels.withUnsafeBufferPointer { coverage in
            corners.background.withUnsafeBufferPointer { background in
                for span in corners.coverage.spans {
                    let row = face.pixels + Int(span.y) * w + Int(span.x)
                    let start = Int(span.start)
                    for i in 0..<Int(span.count) {
                        row[i] = multiply(row[i], by: coverage[start + i]) &+ background[start + i]
                    }
                }
            }
        }
    }

    /// `layer` OVER `face`: d = s + d × (255 − s.alpha) / 255, rounded as the layer says.
    private static func blend(_ layer: Layer, onto face: Texture) {
        let w = face.width
        layer.pixels.withUnsafeBufferPointer { pixels in
            layer.roundings.withUnsafeBufferPointer { roundings in
                for span in layer.spans {
                    let row = face.pixels + Int(span.y) * w + Int(span.x)
                    let start = Int(span.start)
                    for i in 0..<Int(span.count) {
                        let s = pixels[start + i]
                        let a = s >> 24
                        if a == 0 { continue }   // nothing drawn there (premultiplied: s is 0)
                        row[i] = s &+ multiply(row[i], by: 255 &- a, rounding: UInt64(roundings[start + i]))
                    }
                }
            }
        }
    }

    /// Each channel of `pixel` times `a` / 255, rounded as pixman does (`UN8x4_MUL_UN8`;
    /// `rounding` 127: as cairo's `mul8x2_8`): two channels in each half of a 64-bit word.
    @inline(__always)
    static func multiply(_ pixel: UInt32, by a: UInt32, rounding: UInt64 = 128) -> UInt32 {
        var t = UInt64(pixel & 0x00FF_00FF) | UInt64((pixel >> 8) & 0x00FF_00FF) << 32
        t = t &* UInt64(a) &+ rounding &* 0x0001_0001_0001_0001
        t = ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
        return UInt32(truncatingIfNeeded: t) | UInt32(truncatingIfNeeded: t >> 32) << 8
    }
}
