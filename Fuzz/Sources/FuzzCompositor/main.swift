import CarouselCore
import FuzzSupport
import Raster

/// The input bytes, read in order (0 past the end).
private struct Bytes {
    let data: [UInt8]
    var at = 0
    mutating func next() -> Int {
        defer { at += 1 }
        return at < data.count ? Int(data[at]) : 0
    }
    /// A coordinate: mostly near 0…`extent`, sometimes far outside it.
    mutating func coordinate(_ extent: Int) -> Double {
        let mode = next(), value = Double(next() << 8 | next()) / 65535
        switch mode % 16 {
        case 0: return (value - 0.5) * 2e6
        case 1: return (value - 0.5) * 1e4
        default: return value * Double(extent + 40) - 20
        }
    }
}

private func canvas(_ width: Int, _ height: Int, _ fill: UInt32) -> Canvas {
    let c = Canvas(width: width, height: height)
    c.fill(fill)
    return c
}

/// Stops with the first differing pixel and the scene (`scene()`) when `a` and `b` differ.
private func same(_ a: Canvas, _ b: Canvas, _ what: String, _ scene: () -> String) {
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] != b[x, y] {
            fatalError("\(what): pixel \(x),\(y) \(a[x, y]) vs \(b[x, y]) in \(scene())")
        }
    }
}

/// Any bytes as a small scene for the compositor: 1–4 quads with textures of 1×1 up to 40×40
/// texels (now and then one 33,000 texels wide, past the loops' 16.16 fixed point), corners
/// near the canvas or far outside it, any alpha, with or without back-face culling, mip levels,
/// a backdrop and a clip. Drawn by each instruction set's loops, on 1 and 3 threads, and (over
/// a backdrop) redrawn inside the clip only: every way must give the same pixels, and no read may
/// leave a texture (AddressSanitizer) — the texel pairs, the partial blocks and the chunks of the
/// affine and projective loop included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompositor(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = Bytes(data: data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    let width = 1 + r.next() % 96, height = 1 + r.next() % 64
    let filter: TextureFilter = r.next() % 2 == 0 ? .bilinear : .mipmap
    var quads: [Quad] = []
    for _ in 0..<(1 + r.next() % 4) {
        let wide = r.next() == 255
        let tw = wide ? 33_000 : 1 + r.next() % 40, th = wide ? 1 + r.next() % 2 : 1 + r.next() % 40
        let seed = UInt32(r.next()), opaque = r.next() % 2 == 0
        let texture = Texture(width: tw, height: th) { x, y in
            let h = (UInt32(x) &* 2_654_435_761) ^ (UInt32(y) &* 40_503) ^ seed &* 97
            let a = opaque ? 255 : h >> 24
            return a << 24 | (((h >> 16) & 0xFF) % (a + 1)) << 16 | (((h >> 8) & 0xFF) % (a + 1)) << 8 | (h & 0xFF) % (a + 1)
        }
        if filter == .mipmap { texture.buildMipLevels() }
        let corners = (0..<4).map { _ in Point2(r.coordinate(width), r.coordinate(height)) }
        quads.append(Quad(texture: texture, corners: corners, alpha: Double(r.next()) / 200, cullsBackFace: r.next() % 4 == 0))
    }
    let under = UInt32(r.next() << 16 | r.next() << 8 | r.next()) | 0xFF00_0000
    let backdrop: Backdrop?
    switch r.next() % 3 {
    case 0: backdrop = nil
    case 1: backdrop = .color(under)
    default:
        let image = canvas(width, height, under)
        image.fill(0xFF20_4060, x: 0, y: 0, width: width / 2, height: height)
        backdrop = .image(image)
    }
    let cx = r.next() % width, cy = r.next() % height
    let clip = PixelRect(x: cx, y: cy, width: 1 + r.next() % (width - cx), height: 1 + r.next() % (height - cy))

    let scene = {
        "\(width)×\(height) \(filter) backdrop \(backdrop.map { "\($0)" } ?? "none"): "
            + quads.map { "\($0.texture.width)×\($0.texture.height) \($0.corners.map { ($0.x, $0.y) }) α \($0.alpha) cull \($0.cullsBackFace)" }
            .joined(separator: "; ")
    }
    let reference = canvas(width, height, 0xFF10_2030)
    Compositor(filter: filter, instructionSet: .baseline).draw(quads, into: reference, backdrop: backdrop)
    for set in InstructionSet.allCases where set != .baseline && set.isAvailable {
        let other = canvas(width, height, 0xFF10_2030)
        Compositor(filter: filter, instructionSet: set).draw(quads, into: other, backdrop: backdrop)
        same(reference, other, "\(set.rawValue) vs baseline", scene)
    }
    let bands = canvas(width, height, 0xFF10_2030)
    Compositor(filter: filter, threads: 3).draw(quads, into: bands, backdrop: backdrop)
    same(reference, bands, "3 bands vs 1", scene)
    if backdrop != nil {
        // A redraw inside the clip over the finished frame changes nothing.
        let redrawn = canvas(width, height, 0)
        redrawn.copy(from: reference, x: 0, y: 0, width: width, height: height)
        Compositor(filter: filter).draw(quads, into: redrawn, clip: clip, backdrop: backdrop)
        same(reference, redrawn, "redraw inside \(clip) vs whole frame", scene)
    }
    return 0
}

@_cdecl("FuzzCompositor_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzCompositor)
}
