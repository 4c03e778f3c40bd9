import CarouselCore
import Foundation

/// A compositor benchmark scene in the format of `../shared/bench/scenes/*.json` (described in
/// `../shared/bench/peers/README.md`), with its textures generated from the documented pattern
/// formula, bit for bit as the peer harnesses generate them.
public struct BenchScene {
    public var name: String
    public var width: Int
    public var height: Int
    /// Background as an opaque XRGB pixel.
    public var background: UInt32
    /// Quads back to front.
    public var quads: [Quad]

    /// A scene file that cannot be used, with the file and the place in it.
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads and validates `path`, then generates every texture.
    public static func load(path: String) throws -> BenchScene {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the file")
        }
        return try load(data: data, source: path)
    }

    /// Validates the scene JSON `data` (named `source` in errors), then generates every texture.
    public static func load(data: Data, source path: String) throws -> BenchScene {
        func fail(_ place: String, _ message: String) -> LoadError {
            LoadError(description: "\(path): \(place.isEmpty ? "" : place + ": ")\(message)")
        }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw fail("", "not valid JSON (\(error.localizedDescription))")
        }
        guard let top = root as? [String: Any] else { throw fail("", "expected a JSON object at the top") }
        func number(_ o: [String: Any], _ key: String, _ place: String) throws -> Double {
            guard let v = o[key] as? NSNumber, v.doubleValue.isFinite else {
                throw fail(place.isEmpty ? key : "\(place).\(key)", "missing or not a number")
            }
            return v.doubleValue
        }
        func integer(_ o: [String: Any], _ key: String, _ place: String, _ range: ClosedRange<Int>) throws -> Int {
            let d = try number(o, key, place)
            guard d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
                throw fail(place.isEmpty ? key : "\(place).\(key)", "must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(d)
        }
        guard let name = top["name"] as? String else { throw fail("name", "missing or not a string") }
        let width = try integer(top, "width", "", 1...16384), height = try integer(top, "height", "", 1...16384)
        guard let bg = top["background"] as? [NSNumber], bg.count == 3,
              bg.allSatisfy({ (0...255).contains($0.intValue) }) else {
            throw fail("background", "expected [r, g, b] with values 0...255")
        }
        let background = 0xFF00_0000 | UInt32(bg[0].intValue) << 16 | UInt32(bg[1].intValue) << 8 | UInt32(bg[2].intValue)

        guard let textureList = top["textures"] as? [[String: Any]] else { throw fail("textures", "expected an array of objects") }
        var textures: [String: Texture] = [:]
        for (i, t) in textureList.enumerated() {
            let place = "textures[\(i)]"
            guard let id = t["id"] as? String else { throw fail("\(place).id", "missing or not a string") }
            let w = try integer(t, "width", place, 2...16384), h = try integer(t, "height", place, 2...16384)
            guard let pattern = (t["pattern"] as? String).flatMap(Pattern.init(rawValue:)) else {
                throw fail("\(place).pattern", "expected \"card\" or \"photo\"")
            }
            let variant = t["variant"] == nil ? 0 : try integer(t, "variant", place, -1_000_000...1_000_000)
            textures[id] = patternTexture(width: w, height: h, pattern: pattern, variant: variant)
        }
        guard let quadList = top["quads"] as? [[String: Any]] else { throw fail("quads", "expected an array of objects") }
        var quads: [Quad] = []
        for (i, q) in quadList.enumerated() {
            let place = "quads[\(i)]"
            guard let id = q["texture"] as? String else { throw fail("\(place).texture", "missing or not a string") }
            guard let texture = textures[id] else { throw fail("\(place).texture", "no texture with id \"\(id)\"") }
            guard let corners = q["corners"] as? [[NSNumber]], corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else {
                throw fail("\(place).corners", "expected 4 points [x, y]")
            }
            let points = corners.map { Point2($0[0].doubleValue, $0[1].doubleValue) }
            let alpha = q["alpha"] == nil ? 1 : try number(q, "alpha", place)
            quads.append(Quad(texture: texture, corners: points, alpha: alpha))
        }
        return BenchScene(name: name, width: width, height: height, background: background, quads: quads)
    }

    /// The two documented texture patterns.
    public enum Pattern: String, Sendable {
        /// Opaque.
        case photo
        /// Transparent outside 24-px rounded corners, 1-px anti-aliased.
        case card
    }

    /// The documented pattern: a gradient with a 16-px checkerboard of darker cells, channels
    /// rotated by `variant`, premultiplied; `card` adds 24-px rounded corners.
    public static func patternTexture(width w: Int, height h: Int, pattern: Pattern, variant: Int) -> Texture {
        let tex = Texture(width: w, height: h)
        let r = 24.0
        let rotation = ((variant % 3) + 3) % 3
        for y in 0..<h {
            for x in 0..<w {
                let r0 = (255 * x) / max(1, w - 1), g0 = (255 * y) / max(1, h - 1), b0 = 255 - (r0 + g0) / 2
                var (cr, cg, cb) = rotation == 0 ? (r0, g0, b0) : (rotation == 1 ? (g0, b0, r0) : (b0, r0, g0))
                if ((x >> 4) + (y >> 4)) & 1 == 1 { cr /= 4; cg /= 4; cb /= 4 }
                var a = 255
                if pattern == .card {
                    let px = Double(x) + 0.5, py = Double(y) + 0.5
                    let cx = px < r ? r : (px > Double(w) - r ? Double(w) - r : px)
                    let cy = py < r ? r : (py > Double(h) - r ? Double(h) - r : py)
                    let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                    let cov = min(1, max(0, r + 0.5 - d))
                    a = Int((255 * cov + 0.5).rounded(.down))
                    cr = (cr * a + 127) / 255; cg = (cg * a + 127) / 255; cb = (cb * a + 127) / 255
                }
                tex.pixels[y * w + x] = UInt32(a) << 24 | UInt32(cr) << 16 | UInt32(cg) << 8 | UInt32(cb)
            }
        }
        return tex
    }

    /// Σ over quads of the exact quad area clipped to the frame (the peers' `covered_px`).
    public var coveredArea: Double {
        quads.reduce(0) { $0 + BenchScene.clippedArea($1.corners, width: Double(width), height: Double(height)) }
    }

    /// Σ over quads of the integer bounding box grown by 1 px, clipped (the peers' `bbox_px`).
    public var boundingBoxArea: Double {
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        return quads.reduce(0) { $0 + Double(PixelRect.covering($1.corners, margin: 1).intersection(frame).area) }
    }

    static func clippedArea(_ corners: [Point2], width: Double, height: Double) -> Double {
        var poly = corners.map { ($0.x, $0.y) }
        func clip(_ keep: (Double, Double) -> Bool, _ cut: ((Double, Double), (Double, Double)) -> (Double, Double)) {
            var out: [(Double, Double)] = []
            for i in poly.indices {
                let p = poly[i], q = poly[(i + 1) % poly.count]
                if keep(p.0, p.1) { out.append(p) }
                if keep(p.0, p.1) != keep(q.0, q.1) { out.append(cut(p, q)) }
            }
            poly = out
        }
        func atX(_ lim: Double) -> ((Double, Double), (Double, Double)) -> (Double, Double) {
            { p, q in (lim, p.1 + (lim - p.0) / (q.0 - p.0) * (q.1 - p.1)) }
        }
        func atY(_ lim: Double) -> ((Double, Double), (Double, Double)) -> (Double, Double) {
            { p, q in (p.0 + (lim - p.1) / (q.1 - p.1) * (q.0 - p.0), lim) }
        }
        clip({ x, _ in x >= 0 }, atX(0))
        clip({ x, _ in x <= width }, atX(width))
        clip({ _, y in y >= 0 }, atY(0))
        clip({ _, y in y <= height }, atY(height))
        var area = 0.0
        for i in poly.indices {
            let p = poly[i], q = poly[(i + 1) % poly.count]
            area += p.0 * q.1 - q.0 * p.1
        }
        return abs(area) / 2
    }

    /// FNV-1a 64 over the R, G, B bytes (blue first, as the peers hash native-endian bytes) of
    /// every pixel; the X byte is ignored.
    public static func checksum(_ canvas: Canvas) -> UInt64 {
        var hash: UInt64 = 1_469_598_103_934_665_603
        for y in 0..<canvas.height {
            let row = canvas.pixels + y * canvas.stride
            for x in 0..<canvas.width {
                let p = row[x]
                hash = (hash ^ UInt64(p & 0xFF)) &* 1_099_511_628_211
                hash = (hash ^ UInt64((p >> 8) & 0xFF)) &* 1_099_511_628_211
                hash = (hash ^ UInt64((p >> 16) & 0xFF)) &* 1_099_511_628_211
            }
        }
        return hash
    }
}
