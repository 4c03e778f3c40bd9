import FuzzSupport
import Raster
@testable import Cards

/// Any bytes as an item's SVG file, through the steps a card takes: the sniff (bytes that are
/// not an SVG must be refused with a `CardFailure`), the external-reference scan, librsvg's
/// parse, the intrinsic size, and `ImageSource.draw` fitted into the card. Parsing is the attack
/// surface, so the card here is small (16 × 12 pixels; the size is a parameter of the loader,
/// a real card is 100–1000 px wide): a document with heavy filters then renders in
/// milliseconds rather than a quarter of a second, and the fuzzer reaches 10⁶ documents.
/// The answer must be a drawing or a `CardFailure` naming the file; never a trap, a hang or a leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let file = "/fuzz/image.svg"
    do {
        guard try ImageFormat.sniff(bytes, path: file) == .svg else { return 0 }
        let doc = try SVGDocument(bytes, file: file)
        if let s = doc.intrinsicSize { precondition(s.width > 0 && s.height > 0, "intrinsic size \(s)") }
        let context = CairoContext(texture: Texture(width: 16, height: 12))
        try ImageSource.svg(doc).draw(on: context, fit: .contain, x: 0, y: 0, width: 16, height: 12)
        context.flush()
    } catch let failure as CardFailure {
        precondition(failure.file == file, "failure names another file: \(failure)")
    } catch {
        preconditionFailure("SVG loading threw something other than CardFailure: \(error)")
    }
    return 0
}

@_cdecl("FuzzSVG_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzSVG)
}
