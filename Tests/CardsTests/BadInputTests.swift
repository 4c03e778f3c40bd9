import Foundation
import KioskConfig
import Raster
import TestSupport
import XCTest
@testable import Cards

/// Every kind of bad input named in the issue: each gives the "!" face, a failure naming the
/// file and the reason, one log line through the pipeline, and leaves the other cards alone.
/// A picture that is not on disk (deleted) is not a broken file: it gives the loading face with
/// the item's title and no badge (issue 20 §5), still with one log line.
final class BadInputTests: XCTestCase {
    let tmp = TempDir()
    let renderer = CardFaceRenderer()

    func failure(for path: String?, font: String? = nil, badge: Bool = true,
                 file: StaticString = #filePath, line: UInt = #line) -> CardFailure? {
        var item = ItemConfig(id: "bad", title: "Bad", image: path)
        if let font { item.style.font = font }
        let r = renderer.renderFace(item, width: 240, height: 180)
        XCTAssertEqual(hasBadge(r.texture), badge, badge ? "no '!' badge on the face" : "a '!' badge on the face", file: file, line: line)
        return r.failure
    }

    /// The amber disc of the "!" badge is at the top-right corner.
    func hasBadge(_ t: Texture) -> Bool {
        let r = max(7, (Double(min(t.width, t.height)) * 0.075).rounded())
        let pad = CardFaceRenderer.padding(width: Double(t.width), height: Double(t.height))
        let c = t.argb(Int(Double(t.width) - pad - r * 0.5), Int(pad + r))
        return c.r > 200 && c.g > 130 && c.g < 190 && c.b < 100
    }

    /// A deleted picture: the journal still gets file and reason, the screen the loading face
    /// with the title (what a card without a picture looks like), not the "!" face.
    func testMissingFile() {
        let path = tmp.file("nope.jpg")
        let f = failure(for: path, badge: false)
        XCTAssertEqual(f?.file, path)
        XCTAssertEqual(f?.reason, "file not found")
        XCTAssertEqual(f?.missing, true)
        let item = ItemConfig(id: "bad", title: "Bad", image: path)
        let face = renderer.renderFace(item, width: 240, height: 180).texture
        let untitled = renderer.renderFace(ItemConfig(id: "bad", title: "", image: path), width: 240, height: 180).texture
        XCTAssertEqual(untitled.pixelArray(), renderer.loadingFace(style: item.style, width: 240, height: 180).pixelArray(),
                       "without a title it is exactly the loading face")
        XCTAssertNotEqual(face.pixelArray(), untitled.pixelArray(), "the title is drawn")
        XCTAssertEqual(failure(for: tmp.file("gone/nope.jpg"), badge: false)?.missing, true, "a folder of the path is gone")
    }

    func testBrokenFilesAreNotMissing() {
        XCTAssertEqual(failure(for: tmp.write("empty.png", []))?.missing, false)
        XCTAssertEqual(failure(for: tmp.write("text.jpg", text: "not an image"))?.missing, false)
    }

    func testZeroBytes() {
        let path = tmp.write("empty.png", [])
        XCTAssertEqual(failure(for: path)?.reason, "file is empty (0 bytes)")
    }

    func testFolderInsteadOfFile() {
        XCTAssertEqual(failure(for: tmp.path)?.reason, "is a folder, not an image file")
    }

    func testTruncatedPNG() throws {
        let good = tmp.file("good.png")
        try TexturePNG.write(TestPictures.landscape(width: 200, height: 150), to: good)
        let bytes = Array(FileManager.default.contents(atPath: good)!)
        let path = tmp.write("cut.png", Array(bytes.prefix(bytes.count / 2)))
        let f = failure(for: path)
        XCTAssertEqual(f?.file, path)
        XCTAssertTrue(f?.reason.hasPrefix("cannot decode PNG") ?? false, f?.reason ?? "no failure")
    }

    func testTruncatedJPEG() {
        let bytes = JPEGEncoder.encode(TestPictures.landscape(width: 300, height: 200))
        let path = tmp.write("cut.jpg", Array(bytes.prefix(bytes.count * 2 / 3)))
        let f = failure(for: path)
        XCTAssertTrue(f?.reason.hasPrefix("cannot decode JPEG") ?? false, f?.reason ?? "no failure")
    }

    func testTextFileNamedJPG() {
        let path = tmp.write("notes.jpg", text: "hello, this is not a picture\n")
        let f = failure(for: path)
        XCTAssertEqual(f?.reason, "not a PNG, JPEG, WebP or SVG image (named .jpg); it starts with \"hello, this \"")
    }

    func testHugePNGRefusedFromHeader() {
        let path = tmp.write("huge.png", TestPictures.pngHeader(width: 50000, height: 50000))
        let f = failure(for: path)
        XCTAssertTrue(f?.reason.contains("50000×50000") ?? false, f?.reason ?? "no failure")
        XCTAssertTrue(f?.reason.contains("refused before decoding") ?? false)
    }

    func testHugeJPEGRefusedFromHeader() {
        let path = tmp.write("huge.jpg", TestPictures.jpegClaiming(width: 50000, height: 50000))
        let f = failure(for: path)
        XCTAssertTrue(f?.reason.contains("JPEG is 50000×50000") ?? false, f?.reason ?? "no failure")
    }

    func testPNGAboveFullDecodeLimitRefused() {
        // 7000 × 7000 = 49 MP: fine for JPEG (decoded reduced), too much for a full PNG decode.
        let path = tmp.write("big.png", TestPictures.pngHeader(width: 7000, height: 7000))
        XCTAssertTrue(failure(for: path)?.reason.contains("limit of 32 megapixels") ?? false)
    }

    /// The refusal names the limit that applied, as written in `[cards] max_image_megapixels`
    /// (0.5 was shown as "0 megapixels"), and the reference names the fixed limits as they are.
    func testLimitMessagesNameTheLimitThatApplied() throws {
        func reason(_ limits: ImageLimits, _ width: Int, _ height: Int, fullDecode: Bool, format: String) -> String? {
            do {
                try limits.check(width: width, height: height, fullDecode: fullDecode, file: "x", format: format)
                return nil
            } catch let f as CardFailure { return f.reason } catch { return "\(error)" }
        }
        var half = ImageLimits()
        half.maxPixels = 500_000
        XCTAssertEqual(reason(half, 1000, 800, fullDecode: false, format: "JPEG"),
                       "JPEG is 1000×800 pixels (0.8 megapixels), above the limit of 0.5 megapixels; refused before decoding")
        XCTAssertNil(reason(half, 1000, 500, fullDecode: false, format: "JPEG"))
        XCTAssertEqual(reason(ImageLimits(), 6000, 6000, fullDecode: true, format: "PNG"),
                       "PNG is 6000×6000 pixels (36 megapixels), above the limit of 32 megapixels for a PNG, which is decoded at full size; refused before decoding")
        XCTAssertEqual(reason(ImageLimits(), 40000, 10, fullDecode: false, format: "JPEG"),
                       "JPEG is 40000×10 pixels, more than 30000 pixels a side; refused before decoding")
        let doc = try XCTUnwrap(ConfigReference.sections.first { $0.header == "cards" }?.rows.first { $0.key == "max_image_megapixels" }?.doc)
        XCTAssertTrue(doc.contains("at most \(ImageLimits().maxFullDecodePixels / 1_000_000) million"), doc)
        XCTAssertTrue(doc.contains("at most \(ImageLimits().maxSide) pixels a side"), doc)
    }

    func testSVGReferencingLocalFileRefused() {
        let other = tmp.write("red.png", TestPictures.pngHeader(width: 1, height: 1))
        let path = tmp.write("ext.svg", text: """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">
              <image xlink:href="\(other)" width="10" height="10"/></svg>
            """)
        let f = failure(for: path)
        XCTAssertEqual(f?.file, path)
        XCTAssertTrue(f?.reason.hasPrefix("SVG references an external resource (\(other))") ?? false, f?.reason ?? "none")
    }

    func testSVGReferencingURLRefused() {
        let path = tmp.write("url.svg", text: """
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
              <rect width="10" height="10" style="fill: url( 'https://example.com/pattern.svg#p' )"/></svg>
            """)
        XCTAssertTrue(failure(for: path)?.reason.contains("https://example.com/pattern.svg#p") ?? false)
    }

    func testSVGWithExternalEntityRefused() {
        let path = tmp.write("xxe.svg", text: """
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY secret SYSTEM "file:///etc/hostname"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&secret;</text></svg>
            """)
        XCTAssertTrue(failure(for: path)?.reason.contains("<!ENTITY secret SYSTEM") ?? false)
    }

    func testSVGWithStandardDoctypeAndInlineReferencesRenders() throws {
        let path = tmp.write("ok.svg", text: """
            <?xml version="1.0"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">
              <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>
              <rect id="r" width="10" height="10"/></defs>
              <use xlink:href="#r" fill="url(#g)"/>
              <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/></svg>
            """)
        let r = renderer.renderFace(ItemConfig(id: "ok", title: "", image: path), width: 100, height: 100)
        XCTAssertNil(r.failure)
    }

    /// Even without the scanner, librsvg (given no base file) does not load a referenced file.
    func testLibrsvgFollowsNoReferenceWithoutBaseFile() throws {
        let red = tmp.file("red.png")
        try TexturePNG.write(Texture(width: 8, height: 8) { _, _ in 0xFFFF_0000 }, to: red)
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><image href="\(red)" width="8" height="8"/>
            <image href="file://\(red)" width="8" height="8"/></svg>
            """
        let doc = try SVGDocument(unscanned: Array(svg.utf8), file: "test.svg")
        let t = Texture(width: 8, height: 8)
        let ctx = CairoContext(texture: t)
        try doc.render(on: ctx, x: 0, y: 0, width: 8, height: 8)
        ctx.flush()
        XCTAssertEqual(t[4, 4], 0, "librsvg loaded an external image")
    }

    func testFontThatDoesNotExist() {
        let f = failure(for: nil, font: "No Such Font Family 12")
        XCTAssertEqual(f?.file, "item 'bad'")
        XCTAssertTrue(f?.reason.hasPrefix("font \"No Such Font Family 12\" is not installed (fc-match would use ") ?? false, f?.reason ?? "")
    }

    func testFontListWithOneInstalledFamilyIsFine() {
        var item = ItemConfig(id: "ok", title: "Fine")
        item.style.font = "No Such Font, DejaVu Sans"
        XCTAssertNil(renderer.renderFace(item, width: 100, height: 80).failure)
    }

    func testGzipSVGRefusedWithAdvice() {
        let path = tmp.write("icon.svgz", [0x1F, 0x8B, 8, 0, 0, 0, 0, 0])
        XCTAssertTrue(failure(for: path)?.reason.contains("save the SVG uncompressed") ?? false)
    }

    /// Through the pipeline: each bad item logs exactly one line naming file and reason, even
    /// when drawn again; the good items around it are drawn as usual.
    func testPipelineLogsOnceAndOtherCardsAreUnaffected() throws {
        let good = tmp.write("good.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 160, height: 120)))
        let bad = [
            tmp.file("missing.jpg"),
            tmp.write("zero.png", []),
            tmp.write("text.jpg", text: "not an image"),
            tmp.write("huge.png", TestPictures.pngHeader(width: 50000, height: 50000)),
            tmp.write("ext.svg", text: "<svg xmlns='http://www.w3.org/2000/svg'><image href='http://example.com/x.png'/></svg>"),
        ]
        var items = [ItemConfig(id: "good0", title: "Good", image: good)]
        for (i, p) in bad.enumerated() { items.append(ItemConfig(id: "bad\(i)", title: "Bad \(i)", image: p)) }
        var fontItem = ItemConfig(id: "font", title: "Font")
        fontItem.style.font = "Missing Font Family"
        items.append(fontItem)
        items.append(ItemConfig(id: "good1", title: "Good too", image: good))
        let capture = LogCapture()
        var options = CardPipeline.Options()
        options.synchronous = true
        let pipeline = CardPipeline(items: items, cardWidth: 160, cardHeight: 120, options: options, logger: capture.logger)
        pipeline.request(visible: Array(items.indices), focus: 3)
        pipeline.invalidate(paths: [good])             // the good file "changed": drawn again
        pipeline.request(visible: Array(items.indices), focus: 3)
        let lines = capture.lines
        XCTAssertEqual(lines.count, bad.count + 1, lines.joined(separator: "\n"))
        for p in bad { XCTAssertEqual(lines.filter { $0.contains(p) }.count, 1, "\(p) in \(lines)") }
        XCTAssertEqual(lines.filter { $0.contains("Missing Font Family") }.count, 1)
        for i in items.indices { XCTAssertTrue(pipeline.isReady(i)) }
        let first = pipeline.face(at: 0, now: 0).texture, last = pipeline.face(at: items.count - 1, now: 0).texture
        XCTAssertFalse(hasBadge(first))
        XCTAssertFalse(hasBadge(last))
        // bad[0] is missing from disk: its title on the loading face, no badge; the log says so.
        XCTAssertFalse(hasBadge(pipeline.face(at: 1, now: 0).texture))
        XCTAssertTrue(lines.contains { $0.contains(bad[0]) && $0.contains("not on disk") }, "\(lines)")
        for i in 2...(bad.count + 1) { XCTAssertTrue(hasBadge(pipeline.face(at: i, now: 0).texture), "item \(i)") }
    }
}
