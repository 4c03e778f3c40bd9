import FuzzSupport
import Raster
@testable import Cards

/// Any bytes as an item's raster image, through the steps a card takes for PNG, JPEG and WebP:
/// format sniffing by content, the decoder with the project's pixel limits (reduced here so that
/// a valid huge image cannot exhaust the fuzzer's memory limit) and the reduction to the card's
/// size. The answer must be a texture within the limits or a `CardFailure` naming the file;
/// never a trap, a hang or a leak. Inputs sniffed as SVG stop after the sniff: `FuzzSVG` covers
/// librsvg (its documents take up to 0.25 s and would slow the raster decoders' fuzzing down).
/// Built with `-enable-testing` (scripts/fuzz.sh) to reach the internal decoders directly.
private let limits = ImageLimits(maxFileBytes: 1 << 20, maxPixels: 4_000_000, maxFullDecodePixels: 2_000_000, maxSide: 4096)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRasterImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let file = "/fuzz/image"
    do {
        switch try ImageFormat.sniff(bytes, path: file) {
        case .png:
            let t = try PNGDecoder.decode(bytes, file: file, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width * t.height <= limits.maxFullDecodePixels, "PNG \(t.width)x\(t.height)")
            let r = ImageSource.reduced(t, fit: .cover, boxWidth: 64, boxHeight: 48)
            precondition(r.width > 0 && r.height > 0 && r.width <= t.width && r.height <= t.height, "PNG reduced to \(r.width)x\(r.height)")
        case .jpeg:
            let t = try JPEGDecoder.decode(bytes, file: file, fit: .cover, boxWidth: 64, boxHeight: 48, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width <= limits.maxSide && t.height <= limits.maxSide, "JPEG \(t.width)x\(t.height)")
        case .webp:
            let t = try WebPDecoder.decode(bytes, file: file, fit: .contain, boxWidth: 64, boxHeight: 48, limits: limits)
            precondition(t.width > 0 && t.height > 0 && t.width <= limits.maxSide && t.height <= limits.maxSide, "WebP \(t.width)x\(t.height)")
        case .svg:
            break
        }
    } catch let failure as CardFailure {
        precondition(failure.file == file, "failure names another file: \(failure)")
    } catch {
        preconditionFailure("image loading threw something other than CardFailure: \(error)")
    }
    return 0
}

@_cdecl("FuzzRasterImage_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzRasterImage)
}
