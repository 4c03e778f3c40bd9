import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// The example's pictures in config/media/ (made by scripts/make-media.sh) all render, the
/// EXIF-tagged one upright. `CARDS_SHEET=FILE.png` also writes them as a contact sheet.
final class ExampleMediaTests: XCTestCase {
    static let mediaDir = (String(describing: #filePath) as NSString).deletingLastPathComponent + "/../../config/media"

    func testEveryExampleFileRendersAsACard() throws {
        var style = CardStyle()
        style.shadow = true
        let items = try ItemsDirectory.items(in: ExampleMediaTests.mediaDir, extensions: ItemsDirectorySettings().extensions, style: style)
        XCTAssertGreaterThanOrEqual(items.count, 12)
        let renderer = CardFaceRenderer()
        var faces: [Texture] = []
        for var item in items {
            if item.image!.hasSuffix(".svg") { item.style.imageFit = "contain"; item.style.shadow = false; item.style.background = 0xFFF1_EEE6; item.style.titleColor = 0xFF22_2222 }
            let r = renderer.renderFace(item, width: 320, height: 240)
            XCTAssertNil(r.failure, "\(item.id): \(r.failure.map(\.reason) ?? "")")
            faces.append(r.texture)
        }
        if let sheet = ProcessInfo.processInfo.environment["CARDS_SHEET"] {
            let cols = 4, rows = (faces.count + cols - 1) / cols, gap = 16
            let out = Texture(width: cols * (320 + gap) + gap, height: rows * (240 + gap) + gap) { _, _ in 0xFF10_1418 }
            for (k, f) in faces.enumerated() {
                let ox = gap + (k % cols) * (320 + gap), oy = gap + (k / cols) * (240 + gap)
                for y in 0..<240 { for x in 0..<320 {
                    let s = f[x, y], a = s >> 24, d = out.pixels[(oy + y) * out.width + ox + x]
                    var v: UInt32 = 0xFF00_0000
                    for sh in stride(from: 0 as UInt32, through: 16, by: 8) {
                        v |= (((s >> sh) & 0xFF) + ((d >> sh) & 0xFF) * (255 - a) / 255) << sh
                    }
                    out.pixels[(oy + y) * out.width + ox + x] = v
                } }
            }
            try TexturePNG.write(out, to: sheet)
        }
    }

    func testPortraitPhotoIsTurnedUpright() throws {
        let path = ExampleMediaTests.mediaDir + "/05-harbour-portrait-exif6.jpg"
        let bytes = try ImageFile.read(path, limits: ImageLimits())
        XCTAssertEqual(ExifOrientation.read(jpeg: bytes), .right)
        let t = try JPEGDecoder.decode(bytes, file: path, fit: .contain, boxWidth: 600, boxHeight: 800, limits: ImageLimits())
        XCTAssertEqual(t.width, 600)
        XCTAssertEqual(t.height, 800)
        XCTAssertGreaterThan(t.argb(20, 20).b, t.argb(20, 20).r, "sky at the top")
    }
}
