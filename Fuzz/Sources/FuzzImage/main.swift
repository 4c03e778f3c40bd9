import FuzzSupport
import Raster
@testable import Cards

/// Any bytes as an item's image file, through the same steps a card takes: format sniffing
/// (PNG, JPEG, WebP, SVG by content), the decoder with the project's pixel limits (reduced here
/// so that a valid huge image cannot exhaust the fuzzer's memory limit), and for SVG a render
/// into a small cairo surface. The answer must be a texture within the limits or a
/// `CardFailure` naming the file; never a trap, a hang or a leak.
/// Built with `-enable-testing` (scripts/fuzz.sh) to reach the internal decoders directly.
private let limits = ImageLimits(maxFileBytes: 1 << 20, maxPixels: 4_000_000, maxFullDecodePixels: 2_000_000, maxSide: 4096)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let file = "/fuzz/image"
    do {
        switch try ImageFormat.sniff(bytes, path: file) {
        case .png:
            let t = try PNGDecoder.decode(bytes, file: file, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width * t.height <= limits.maxFullDecodePixels, "PNG \(t.width)x\(t.height)")
        case .jpeg:
            let t = try JPEGDecoder.decode(bytes, file: file, fit: .cover, boxWidth: 64, boxHeight: 48, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width <= limits.maxSide && t.height <= limits.maxSide, "JPEG \(t.width)x\(t.height)")
        case .webp:
            let t = try WebPDecoder.decode(bytes, file: file, fit: .contain, boxWidth: 64, boxHeight: 48, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width <= limits.maxSide && t.height <= limits.maxSide, "WebP \(t.width)x\(t.height)")
        case .svg:
            let doc = try SVGDocument(bytes, file: file)
            let context = CairoContext(texture: Texture(width: 32, height: 24))
            try doc.render(on: context.cr, x: 0, y: 0, width: 32, height: 24)
        }
    } catch let failure as CardFailure {
        precondition(failure.file == file, "failure names another file: \(failure)")
    } catch {
        preconditionFailure("image loading threw something other than CardFailure: \(error)")
    }
    return 0
}

@_cdecl("FuzzImage_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzImage)
}
