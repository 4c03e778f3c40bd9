import CCardLibs
import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

final class ImageDecodingTests: XCTestCase {
    let tmp = TempDir()

    func testJPEGDecodesAtReducedSizeWhenLargerThanTheCard() throws {
        // 2000×1500 against a 240×180 box: the picture is more than 8× the box (cover needs scale
        // 0.12), so libjpeg's 1/8 is chosen, as it was for the 4000×3000 picture against 480×360
        // this test used before; a quarter of the pixels to make, encode and decode (that took
        // 80 s under qemu-user). 1500/8 = 187.5 also checks the size is rounded up.
        let big = JPEGEncoder.encode(TestPictures.landscape(width: 2000, height: 1500), quality: 80)
        let t = try JPEGDecoder.decode(big, file: "big.jpg", fit: .cover, boxWidth: 240, boxHeight: 180, limits: ImageLimits())
        XCTAssertEqual(t.width, 250)           // 1/8 is the smallest factor still covering 240×180
        XCTAssertEqual(t.height, 188)
        let contain = try JPEGDecoder.decode(big, file: "big.jpg", fit: .contain, boxWidth: 500, boxHeight: 150, limits: ImageLimits())
        XCTAssertEqual(contain.height, 188)    // contain needs scale 0.1 → 1/8
        let full = try JPEGDecoder.decode(big, file: "big.jpg", fit: .cover, boxWidth: 2000, boxHeight: 1500, limits: ImageLimits())
        XCTAssertEqual(full.width, 2000)
    }

    func testJPEGWithEXIFOrientationIsShownUpright() throws {
        // Stored landscape 120×80 with red top-left and blue top-right markers, tagged "rotate 90° CW".
        let bytes = JPEGEncoder.encode(TestPictures.landscape(width: 120, height: 80, markers: true), quality: 95, orientation: .right)
        XCTAssertEqual(ExifOrientation.read(jpeg: bytes), .right)
        let t = try JPEGDecoder.decode(bytes, file: "o.jpg", fit: .cover, boxWidth: 80, boxHeight: 120, limits: ImageLimits())
        XCTAssertEqual(t.width, 80)
        XCTAssertEqual(t.height, 120)
        // After turning 90° clockwise the stored top-left (red) is at the top-right, blue at the bottom-right.
        XCTAssertGreaterThan(t.argb(75, 5).r, 200)
        XCTAssertLessThan(t.argb(75, 5).b, 60)
        XCTAssertGreaterThan(t.argb(75, 114).b, 200)
        XCTAssertLessThan(t.argb(75, 114).r, 60)
    }

    func testEXIFOrientationBothByteOrdersAndAllValues() {
        for o in ExifOrientation.allCases {
            let jpeg = JPEGEncoder.encode(TestPictures.landscape(width: 16, height: 16), orientation: o)
            XCTAssertEqual(ExifOrientation.read(jpeg: jpeg), o)
        }
        // Big-endian ("MM") TIFF with the orientation as the second entry.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 2,
                             0x01, 0x0F, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0, 0]
        XCTAssertEqual(ExifOrientation.fromTIFF(tiff[...]), .left)
        XCTAssertEqual(ExifOrientation.read(jpeg: [0xFF, 0xD8, 0xFF, 0xE1, 0, 4, 1, 2]), .up)
        XCTAssertEqual(ExifOrientation.read(jpeg: Array("not a jpeg".utf8)), .up)
    }

    func testOrientationMappingOfAllEight() {
        // 3×2 stored: values 0…5 row by row.
        let stored = Texture(width: 3, height: 2) { x, y in UInt32(y * 3 + x) }
        func rows(_ o: ExifOrientation) -> [[UInt32]] {
            let t = o.apply(to: stored)
            return (0..<t.height).map { y in (0..<t.width).map { t[$0, y] } }
        }
        XCTAssertEqual(rows(.up), [[0, 1, 2], [3, 4, 5]])
        XCTAssertEqual(rows(.mirrored), [[2, 1, 0], [5, 4, 3]])
        XCTAssertEqual(rows(.down), [[5, 4, 3], [2, 1, 0]])
        XCTAssertEqual(rows(.mirroredDown), [[3, 4, 5], [0, 1, 2]])
        XCTAssertEqual(rows(.transposed), [[0, 3], [1, 4], [2, 5]])
        XCTAssertEqual(rows(.right), [[3, 0], [4, 1], [5, 2]])
        XCTAssertEqual(rows(.transverse), [[5, 2], [4, 1], [3, 0]])
        XCTAssertEqual(rows(.left), [[2, 5], [1, 4], [0, 3]])
    }

    func testPNGWithAlphaIsPremultiplied() throws {
        let path = tmp.file("alpha.png")
        // Half-transparent pure red (premultiplied 0x80800000) written and read back.
        try TexturePNG.write(Texture(width: 4, height: 4) { _, _ in 0x8080_0000 }, to: path)
        let t = try PNGDecoder.decode(Array(FileManager.default.contents(atPath: path)!), file: path, limits: ImageLimits())
        XCTAssertEqual(t[1, 1] >> 24, 0x80)
        XCTAssertEqual(Int((t[1, 1] >> 16) & 0xFF), 0x80, accuracy: 1)
        XCTAssertEqual(t[1, 1] & 0xFFFF, 0)
    }

    func testWebPDecodesScaled() throws {
        let src = TestPictures.landscape(width: 800, height: 600)
        var out: UnsafeMutablePointer<UInt8>?
        let size = WebPEncodeBGRA(UnsafeMutableRawPointer(src.pixels).assumingMemoryBound(to: UInt8.self),
                                  800, 600, 800 * 4, 80, &out)
        XCTAssertGreaterThan(size, 0)
        let bytes = Array(UnsafeBufferPointer(start: out, count: size))
        WebPFree(out)
        XCTAssertEqual(try ImageFormat.sniff(bytes, path: "x.webp"), .webp)
        let t = try WebPDecoder.decode(bytes, file: "x.webp", fit: .cover, boxWidth: 200, boxHeight: 100, limits: ImageLimits())
        XCTAssertEqual(t.width, 200)
        XCTAssertEqual(t.height, 150)
        XCTAssertEqual(t[10, 10] >> 24, 0xFF)
        let truncated = try? WebPDecoder.decode(Array(bytes.prefix(bytes.count / 2)), file: "t.webp", fit: .cover,
                                                boxWidth: 200, boxHeight: 100, limits: ImageLimits())
        XCTAssertNil(truncated)
    }

    func testSniffingByContentNotName() throws {
        let png = tmp.file("actually-png.jpg")
        try TexturePNG.write(TestPictures.landscape(width: 20, height: 10), to: png)
        let r = CardFaceRenderer().renderFace(ItemConfig(id: "p", title: "", image: png), width: 40, height: 20)
        XCTAssertNil(r.failure)
        XCTAssertTrue(ImageFormat.looksLikeSVG(Array("\u{FEFF}  <?xml version='1.0'?><svg/>".utf8)))
        XCTAssertFalse(ImageFormat.looksLikeSVG(Array("<html><body>svg</body></html>".utf8)))
    }

    func testImageFitPlacement() {
        let cover = ImageFit.cover.place(imageWidth: 400, imageHeight: 200, boxWidth: 100, boxHeight: 100)
        XCTAssertEqual(cover.width, 200)
        XCTAssertEqual(cover.height, 100)
        XCTAssertEqual(cover.x, -50)
        let contain = ImageFit.contain.place(imageWidth: 400, imageHeight: 200, boxWidth: 100, boxHeight: 100)
        XCTAssertEqual(contain.width, 100)
        XCTAssertEqual(contain.height, 50)
        XCTAssertEqual(contain.y, 25)
        XCTAssertEqual(ImageFit(styleName: "Contain"), .contain)
        XCTAssertEqual(ImageFit(styleName: "whatever"), .cover)
    }

    func testContainLeavesBackgroundBands() throws {
        let path = tmp.file("wide.png")
        try TexturePNG.write(Texture(width: 400, height: 100) { _, _ in 0xFFFF_0000 }, to: path)
        var style = CardStyle()
        style.imageFit = "contain"
        style.background = 0xFF00_FF00
        style.cornerRadius = 0
        let t = CardFaceRenderer().render(ItemConfig(id: "w", title: "", image: path, style: style), width: 200, height: 200)
        XCTAssertEqual(t[100, 100], 0xFFFF_0000)
        XCTAssertEqual(t[100, 20], 0xFF00_FF00)
        style.imageFit = "cover"
        let c = CardFaceRenderer().render(ItemConfig(id: "w", title: "", image: path, style: style), width: 200, height: 200)
        XCTAssertEqual(c[100, 20], 0xFFFF_0000)
    }
}

final class ReductionTests: XCTestCase {
    func testHalvingAveragesPremultipliedBlocks() {
        let t = Texture(width: 4, height: 2) { x, _ in x < 2 ? 0xFFFF_0000 : (x == 2 ? 0xFF00_0000 : 0x0000_0000) }
        let h = t.halved()
        XCTAssertEqual(h.width, 2)
        XCTAssertEqual(h.height, 1)
        XCTAssertEqual(h[0, 0], 0xFFFF_0000)
        XCTAssertEqual(h[1, 0], 0x8000_0000)
    }

    func testBigPicturesAreReducedToAtMostTwiceTheDrawnSize() {
        let big = Texture(width: 1600, height: 1200)
        let r = ImageSource.reduced(big, fit: .cover, boxWidth: 480, boxHeight: 360)
        XCTAssertEqual(r.width, 800)       // 1600 → 800 (still ≥ 480); 400 would be too small
        XCTAssertEqual(r.height, 600)
        XCTAssertTrue(ImageSource.reduced(big, fit: .cover, boxWidth: 1600, boxHeight: 1200) === big)
    }
}
